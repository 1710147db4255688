import type { ServerResponse } from 'node:http';
import type { Logger } from '../../../internal/logger.js';
import { describeError } from '../../../internal/errors.js';
import type { Queryable } from '../../../internal/pg.js';
import type { CampaignVisibility } from '../../visibility/campaignVisibility.js';
import type { EventFeed } from './eventFeed.js';
import { type EventFilter, listEvents, matchesFilter } from './repo.js';
import { serializeEvent, toSseError, toSseMessage } from './serialize.js';
import { coalesced } from '../../../internal/coalesced.js';

/** Rows read per query while catching up; a stream re-reads until it is level with the log. */
const PAGE = 500;
/** Last chance for a dropped client to read its error before its socket is destroyed. */
const DROP_GRACE_MS = 10_000;
/** How often a stalled stream looks at its socket buffer again. */
const STALL_POLL_MS = 20;

export type StreamEventsParams = {
  db: Queryable;
  res: ServerResponse;
  feed: EventFeed;
  logger: Logger;
  after: string;
  filter: EventFilter;
  visible: CampaignVisibility;
  maxBufferBytes: number;
  /** How long a client may keep more than `maxBufferBytes` unread before it is dropped. */
  stallMs: number;
  heartbeatMs: number;
};

/**
 * Serves the log as Server-Sent Events on `res` (headers already sent) from id `after` on, until
 * the client goes away or is dropped: each time the shared feed has read new events, what follows
 * the last id sent is taken from the feed's window and filtered in memory when the window holds it
 * and every matching event is public; otherwise (a stream catching up, an event about a private
 * campaign) it is read through the same query and visibility rule as the JSON pages. Either way
 * nothing is skipped or repeated. Heartbeat comments every `heartbeatMs`. Writing pauses while the client leaves more
 * than `maxBufferBytes` unread (so the API holds at most that plus one event for it); one that
 * stays above it for `stallMs` is sent `event: error` (SLOW_CLIENT, with the last id it was sent)
 * and dropped. Resolves when the stream is over.
 */
export function streamEvents(p: StreamEventsParams): Promise<void> {
  const { res } = p;
  let last = p.after;
  let done = false;
  return new Promise<void>((resolve) => {
    const finish = () => {
      if (done) return;
      done = true;
      clearInterval(heartbeat);
      unsubscribe();
      resolve();
    };
    const write = (text: string) => {
      if (!done) res.write(text);
    };
    /**
     * Waits while the client leaves more than the bound unread (writes of one tick sit in the corked
     * socket until the next, so a burst is not a slow client); past `stallMs` it is dropped.
     */
    const keptUp = async (): Promise<boolean> => {
      // The tick's corked writes reach the socket first; a client that reads is level again by then.
      await new Promise((r) => setImmediate(r));
      const t0 = Date.now();
      while (!done && res.writableLength > p.maxBufferBytes) {
        if (Date.now() - t0 > p.stallMs) {
          drop(
            'SLOW_CLIENT',
            `the client left more than ${p.maxBufferBytes} bytes unread for ${p.stallMs} ms; reconnect with Last-Event-ID`,
          );
          return false;
        }
        await new Promise((r) => setTimeout(r, STALL_POLL_MS));
      }
      return !done;
    };
    const drop = (code: string, reason: string) => {
      if (done) return;
      res.end(toSseError(code, reason, { lastEventId: last }));
      finish();
      setTimeout(() => res.destroy(), DROP_GRACE_MS).unref();
    };
    /** From the feed's window: true when it held everything after `last` and all of it may be sent to anyone. */
    const fromFeed = async (): Promise<boolean> => {
      const window = p.feed.rowsAfter(last);
      if (!window) return false;
      const rows = window.filter((r) => matchesFilter(r, p.filter));
      if (!rows.every((r) => r.public)) return false;
      for (const row of rows) {
        if (done) return true;
        write(toSseMessage(serializeEvent(row)));
        last = row.id;
        if (res.writableLength > p.maxBufferBytes && !(await keptUp())) return true;
      }
      // Past what it filtered out too, so the next look starts after it.
      const end = window[window.length - 1];
      if (end && !done && BigInt(end.id) > BigInt(last)) last = end.id;
      return true;
    };
    const readOnce = async () => {
      if (await fromFeed()) return;
      for (;;) {
        const rows = await listEvents(p.db, { after: last, limit: PAGE, filter: p.filter, visible: p.visible });
        for (const row of rows) {
          if (done) return;
          write(toSseMessage(serializeEvent(row)));
          last = row.id;
          if (res.writableLength > p.maxBufferBytes && !(await keptUp())) return;
        }
        if (rows.length < PAGE || done) return;
      }
    };
    const reads = coalesced(
      () =>
        readOnce().catch((error: unknown) => {
          p.logger.error({ msg: 'event stream: read failed', err: describeError(error) });
          drop('INTERNAL', 'reading the event log failed; reconnect with Last-Event-ID');
        }),
      () => !done,
    );
    const read = () => {
      if (!done) reads.run();
    };
    // A stalled stream gets no heartbeat: the read waiting on it decides whether it is dropped.
    const heartbeat = setInterval(() => {
      if (res.writableLength <= p.maxBufferBytes) write(': heartbeat\n\n');
    }, p.heartbeatMs);
    const unsubscribe = p.feed.subscribe(read);
    res.once('close', finish);
    read();
  });
}
