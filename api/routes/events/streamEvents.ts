import type { ServerResponse } from 'node:http';
import type { Logger } from '../../../internal/logger.js';
import { describeError } from '../../../internal/errors.js';
import type { Queryable } from '../../../internal/pg.js';
import type { CampaignVisibility } from '../../visibility/campaignVisibility.js';
import type { EventWakeups } from './eventWakeups.js';
import { type EventFilter, listEvents } from './repo.js';
import { serializeEvent, toSseError, toSseMessage } from './serialize.js';
import { coalesced } from '../../../internal/coalesced.js';

/** Rows read per query while catching up; a stream re-reads until it is level with the log. */
const PAGE = 500;
/** The safety net under LISTEN: every stream reads the log this often even without a notification. */
export const POLL_MS = 5000;
/** Last chance for a dropped client to read its error before its socket is destroyed. */
const DROP_GRACE_MS = 10_000;
/** How often a stalled stream looks at its socket buffer again. */
const STALL_POLL_MS = 20;

export type StreamEventsParams = {
  db: Queryable;
  res: ServerResponse;
  wakeups: EventWakeups;
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
 * the client goes away or is dropped: each committed append (or the poll) reads what follows the
 * last id sent, through the same query and visibility rule as the JSON pages, so nothing is skipped
 * or repeated. Heartbeat comments every `heartbeatMs`. Writing pauses while the client leaves more
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
      clearInterval(poll);
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
    const readOnce = async () => {
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
    const poll = setInterval(read, POLL_MS);
    const unsubscribe = p.wakeups.subscribe(read);
    res.once('close', finish);
    read();
  });
}
