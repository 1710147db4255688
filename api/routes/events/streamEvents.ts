import type { ServerResponse } from 'node:http';
import type { Logger } from '../../../internal/logger.js';
import { describeError } from '../../../internal/errors.js';
import type { Queryable } from '../../../internal/pg.js';
import { type EventReader, visibleEvents } from '../../../domain/eventLog/eventReader.js';
import { type EventFilter, type EventRow, matchesFilter, readEvents } from '../../../domain/eventLog/readEvents.js';
import { serializeEvent } from '../../../domain/eventLog/serializeEvent.js';
import type { EventFeed } from './eventFeed.js';
import { toSseError, toSseMessage } from './serialize.js';
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
  /** Who reads: what it may see is asked when each event is sent (domain/eventLog/eventReader.ts). */
  reader: EventReader;
  /**
   * The caller's credentials, checked again every `recheckMs`: a reason when they no longer hold
   * (session revoked or expired, API key revoked), which ends the stream; null while they do.
   */
  credentials?: { check: () => Promise<string | null>; recheckMs: number; expiresAt?: number };
  maxBufferBytes: number;
  /** How long a client may keep more than `maxBufferBytes` unread before it is dropped. */
  stallMs: number;
  heartbeatMs: number;
};

/**
 * Serves the log as Server-Sent Events on `res` (headers already sent) from id `after` on, until
 * the client goes away or is dropped: each time the shared feed has read new events, what follows
 * the last id sent is taken from the feed's window and filtered in memory when the window holds it;
 * otherwise (a stream catching up) it is read through the filter's index (readEvents). Either way
 * what the reader may see is decided as it is sent (privacy now, the reader's rights now: one
 * rule, domain/eventLog/eventReader.ts), and the cursor moves past every row examined, sent or not,
 * so nothing is skipped, repeated or read twice. The caller's credentials are checked again every
 * `credentials.recheckMs` and at a session's expiry: gone, the stream ends with `event: error`
 * (CREDENTIALS_ENDED). Heartbeat comments every `heartbeatMs`. Writing pauses while the client
 * leaves more than `maxBufferBytes` unread (so the API holds at most that plus one event for it);
 * one that stays above it for `stallMs` is sent `event: error` (SLOW_CLIENT, with the last id it
 * was sent) and dropped. Resolves when the stream is over.
 */
export function streamEvents(p: StreamEventsParams): Promise<void> {
  const { res } = p;
  // A client gone while the handler read its resume point (its 'close' fired before anyone listened):
  // nothing to serve, and subscribing would keep the feed (its LISTEN connection) for nobody (#44).
  if (isGone(res)) return Promise.resolve();
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
    /**
     * Sends what the reader may see of `rows` now, then moves past `examined` (every row the read
     * looked at, sent or not: #43 F2). False when the stream ended meanwhile.
     */
    const send = async (rows: readonly EventRow[], examined: string): Promise<boolean> => {
      const visible = rows.length ? await visibleEvents(p.db, p.reader, rows, p.feed.privateNow) : [];
      for (const row of visible) {
        if (done) return false;
        write(toSseMessage(serializeEvent(row)));
        last = row.id;
        if (res.writableLength > p.maxBufferBytes && !(await keptUp())) return false;
      }
      if (done) return false;
      if (BigInt(examined) > BigInt(last)) last = examined;
      return true;
    };
    /** From the feed's window: true when it held everything after `last`. */
    const fromFeed = async (): Promise<boolean> => {
      const window = p.feed.rowsAfter(last);
      if (!window) return false;
      const end = window[window.length - 1];
      await send(
        window.filter((r) => matchesFilter(r, p.filter)),
        end ? end.id : last,
      );
      return true;
    };
    const readOnce = async () => {
      if (await fromFeed()) return;
      for (;;) {
        // Every visible-or-not match of the filter: the reader's visibility is decided in `send`.
        // At most PAGE index entries per read, whatever the filters; `more` until level with the head.
        const { rows, examined, more } = await readEvents(p.db, {
          after: last,
          limit: PAGE,
          filter: p.filter,
          visible: 'all',
        });
        if (!(await send(rows, examined)) || !more) return;
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
    const credentials = p.credentials;
    if (credentials) {
      const endIf = (reason: string | null) => {
        if (reason) drop('CREDENTIALS_ENDED', `${reason}; reconnect with Last-Event-ID (with valid credentials)`);
      };
      const check = () =>
        credentials.check().then(endIf, (error: unknown) => {
          p.logger.error({ msg: 'event stream: credential check failed', err: describeError(error) });
        });
      const recheck = setInterval(() => {
        if (!done) void check();
      }, credentials.recheckMs);
      recheck.unref();
      // An expiring session ends the stream at its expiry, not at the next check.
      const expiry =
        credentials.expiresAt === undefined
          ? null
          : setTimeout(() => endIf('the session expired'), Math.max(0, credentials.expiresAt - Date.now()));
      expiry?.unref();
      res.once('close', () => {
        clearInterval(recheck);
        if (expiry) clearTimeout(expiry);
      });
    }
    read();
  });
}

/** The response's client has gone (socket destroyed or detached, response ended): checked before listening for 'close'. */
export function isGone(res: ServerResponse): boolean {
  return res.destroyed || res.writableEnded || !res.socket || res.socket.destroyed;
}
