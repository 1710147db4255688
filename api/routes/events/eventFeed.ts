import type { Logger } from '../../../internal/logger.js';
import type { PgPool } from '../../../internal/pg.js';
import { listenChannel, type PgListener } from '../../../internal/pgListen.js';
import { coalesced } from '../../../internal/coalesced.js';
import { describeError } from '../../../internal/errors.js';
import { type EventRow, latestCommittedEventId, readFeed } from '../../../domain/eventLog/readEvents.js';
import type { PrivateNow } from '../../../domain/eventLog/eventReader.js';
import { privateCampaignsAmong } from '../../../domain/visibility/campaignVisibility.js';

/** Rows the feed keeps in memory: streams level with the log read their next events from here. */
const KEEP_ROWS = 5000;
/** Rows per query while the feed catches up. */
const PAGE = 1000;
/** The safety net under LISTEN: the feed reads the log this often even without a notification. */
export const POLL_MS = 5000;

export type EventFeed = {
  /** Calls `onWake` after the feed has read newly committed events, until the returned function is called. */
  subscribe(onWake: () => void): () => void;
  /**
   * The events after id `after` up to the newest the feed has read, oldest first; null when the
   * feed does not hold all of them (a stream behind it reads the table instead). Whether a stream
   * may send each one is not the feed's to say: it asks `privateNow` when it sends.
   */
  rowsAfter(after: string): readonly EventRow[] | null;
  /**
   * Which of these campaigns are private now: the calls of one tick (every stream woken by one
   * read) share one query, so 2,000 streams cost one privacy read per append, asked when they send.
   */
  privateNow: PrivateNow;
  /** Subscribers now (open streams of this process). */
  size(): number;
};

/**
 * One reader of the event log per API process for all its open streams: one LISTEN connection
 * (internal/pgListen.ts) and, per committed append (the trigger of migration 2026_11_30_01
 * notifies once per statement, at commit) or every POLL_MS, one query for the new rows, kept in a
 * bounded window. Each stream filters that window in memory instead of querying the table itself
 * (2,000 open streams cost one query per append, not 2,000). Opened with the first stream, closed
 * with the last.
 */
export function createEventFeed({ pg, logger }: { pg: PgPool; logger: Logger }): EventFeed {
  const subscribers = new Set<() => void>();
  let listener: PgListener | null = null;
  let poll: NodeJS.Timeout | null = null;
  let rows: EventRow[] = [];
  /** The window holds every event with id in (floor, head]; null until the first read. */
  let floor: bigint | null = null;
  let head = 0n;
  /** Bumped when the last stream closes: a read still in flight then leaves the (reset) window alone. */
  let generation = 0;
  const readNew = async () => {
    const gen = generation;
    if (floor === null) {
      // The newest committed id, not the sequence's: an append holding a higher id and committing
      // after this read would otherwise never enter the window, and no stream level with the feed
      // would be woken for it (a stream opened meanwhile waited for the next append).
      const latest = BigInt(await latestCommittedEventId(pg));
      if (gen !== generation) return;
      head = latest;
      floor = latest;
      // An append that committed between a stream's own start and this read lies at or under the
      // floor: that stream is behind the feed and reads the table, but only once woken. Wake every
      // stream once here; without it one waited for the next append (seen under load in CI).
      for (const s of subscribers) s();
      return;
    }
    let got = 0;
    for (;;) {
      const page = await readFeed(pg, { after: head.toString(), limit: PAGE });
      if (gen !== generation) return;
      if (!page.length) break;
      rows.push(...page);
      head = BigInt(page[page.length - 1]!.id);
      got += page.length;
      if (page.length < PAGE) break;
    }
    if (rows.length > KEEP_ROWS) {
      const cut = rows.length - KEEP_ROWS;
      floor = BigInt(rows[cut - 1]!.id);
      rows = rows.slice(cut);
    }
    if (got) for (const s of subscribers) s();
  };
  const reads = coalesced(
    () =>
      readNew().catch((error: unknown) => {
        logger.error({ msg: 'event feed: read failed', err: describeError(error) });
      }),
    () => subscribers.size > 0,
  );
  const stop = () => {
    generation += 1;
    if (listener) void listener.stop();
    if (poll) clearInterval(poll);
    listener = null;
    poll = null;
    rows = [];
    floor = null;
  };
  const privateNow = batchedPrivacy(pg);
  return {
    privateNow,
    subscribe(onWake) {
      subscribers.add(onWake);
      if (!listener) {
        listener = listenChannel({ pg, logger, channel: 'events', name: 'event feed', onNotify: () => reads.run() });
        poll = setInterval(() => reads.run(), POLL_MS);
        reads.run();
      }
      return () => {
        subscribers.delete(onWake);
        if (!subscribers.size) stop();
      };
    },
    rowsAfter(after) {
      const from = BigInt(after);
      if (floor === null || from < floor) return null;
      if (from >= head) return [];
      // Ids increase along the window: skip to the first after `from`.
      let lo = 0;
      let hi = rows.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (BigInt(rows[mid]!.id) <= from) lo = mid + 1;
        else hi = mid;
      }
      return rows.slice(lo);
    },
    size: () => subscribers.size,
  };
}

/**
 * privateCampaignsAmong with the calls made in one tick batched into one query (each caller gets
 * the set for all of them; a campaign it did not ask about is not among its rows anyway).
 */
function batchedPrivacy(pg: PgPool): PrivateNow {
  let pending: { ids: Set<string>; answer: Promise<Set<string>> } | null = null;
  return (ids) => {
    if (!pending) {
      const batch = new Set<string>();
      pending = {
        ids: batch,
        answer: new Promise<void>((r) => setImmediate(r)).then(() => {
          pending = null;
          return privateCampaignsAmong(pg, [...batch]);
        }),
      };
    }
    for (const id of ids) pending.ids.add(id);
    return pending.answer;
  };
}
