import type { Queryable } from '../../internal/pg.js';
import {
  type CampaignVisibility,
  privateCampaignsAmong,
  visibilitySqlParams,
  visibleCampaignSql,
} from '../visibility/campaignVisibility.js';

/** An events row as readers read it (bigints as strings, as pg returns them). */
export type EventRow = {
  id: string;
  type: string;
  chain_id: number | null;
  campaign_db_id: string | null;
  opportunity_id: string | null;
  address: string | null;
  root: string | null;
  block_number: string | null;
  retracted: boolean;
  payload: Record<string, unknown>;
  created_at: Date;
  /** The creator of the event's campaign (lower case; the `creator` filter), not served. */
  creator: string | null;
};

/**
 * Filters of one read; `campaignDbId` is already resolved through the visibility rule. Each is
 * read through its own (column, id) index of the events table (migrations 2026_11_30_01 and
 * 2026_12_07_20), so a read examines the index entries of one filter after its cursor.
 */
export type EventFilter = {
  types?: readonly string[];
  chainId?: number;
  campaignDbId?: string;
  opportunityId?: string;
  address?: string;
  /** Events about campaigns this address created. */
  creator?: string;
};

/** The largest id (bigint): the upper bound when none is given. */
const MAX_ID = '9223372036854775807::bigint';

/** The columns of an EventRow. */
const EVENT_COLUMNS = `e.id::text AS id, e.type, e.chain_id, e.campaign_db_id, e.opportunity_id, e.address, e.root,
  e.block_number::text AS block_number, e.retracted, e.payload, e.created_at, e.creator`;

export type ListEventsParams = {
  after: string;
  limit: number;
  filter: EventFilter;
  visible: CampaignVisibility;
  /** Only events with id ≤ this (a read level with a head read before it). */
  upTo?: string;
};

/**
 * Events with id > `after` matching `filter`, oldest first, at most `limit`. An event about a
 * campaign passes the one visibility rule (visibleCampaignSql) on that campaign's id, so a private
 * campaign's events reach only callers who may see it. Table events (campaign_privacy).
 */
export async function listEvents(
  db: Queryable,
  { after, limit, filter, visible, upTo }: ListEventsParams,
): Promise<EventRow[]> {
  const where = `($3::int IS NULL OR e.chain_id = $3)
       AND ($4::text IS NULL OR e.campaign_db_id = $4)
       AND ($5::text IS NULL OR e.opportunity_id = $5)
       AND ($6::text IS NULL OR e.address = $6)
       AND ($9::text IS NULL OR e.creator = $9)
       AND (e.campaign_db_id IS NULL OR ${visibleCampaignSql('c', 7, 8)})`;
  const params = [
    after,
    limit,
    filter.chainId ?? null,
    filter.campaignDbId ?? null,
    filter.opportunityId ?? null,
    filter.address?.toLowerCase() ?? null,
    ...visibilitySqlParams(visible),
    filter.creator?.toLowerCase() ?? null,
    upTo ?? null,
  ];
  const types = filter.types?.length ? [...new Set(filter.types)] : null;
  const { rows } = types
    ? // Per type, its (type, id) index up to `limit` rows, then merged: `type = ANY(…)` would read
      // every row of those types after `after` and sort them (or walk the whole log by id for rare
      // types). The id bounds are written on (type, id), which only that index serves: on `id` alone,
      // a short id range looks cheaper by the primary key, which then reads every type's rows.
      await db.query<EventRow>(
        `SELECT e.* FROM unnest($11::text[]) AS t(type) CROSS JOIN LATERAL (
           SELECT ${EVENT_COLUMNS} FROM events e CROSS JOIN LATERAL (SELECT e.campaign_db_id AS id) c
           WHERE e.type = t.type AND (e.type, e.id) > (t.type, $1::bigint)
             AND (e.type, e.id) <= (t.type, coalesce($10::bigint, ${MAX_ID})) AND ${where}
           ORDER BY e.type, e.id LIMIT $2) e
         ORDER BY e.id::bigint LIMIT $2`,
        [...params, types],
      )
    : await db.query<EventRow>(
        `SELECT ${EVENT_COLUMNS} FROM events e CROSS JOIN LATERAL (SELECT e.campaign_db_id AS id) c
         WHERE e.id > $1::bigint AND ($10::bigint IS NULL OR e.id <= $10::bigint) AND ${where}
         ORDER BY e.id LIMIT $2`,
        params,
      );
  return rows;
}

/** Most events one page examines, visible or not: a page of `limit` stops here even when short. */
export const MAX_EXAMINED_PER_PAGE = 5_000;

/** Most events one statement of a page reads. */
const CHUNK_MAX = 1_000;

/** One page of events for a reader: the rows it may see, and where to read on from (null: level with the log). */
export type EventPage = { rows: EventRow[]; next: string | null };

/**
 * A page of the events after `after` that match `filter` and that `visible` allows, at most `limit`,
 * examining at most `maxExamined` matches of the filter: they are read through the filter's index in
 * chunks of `limit` (listEvents with no visibility) and the chunk's private campaigns are asked once
 * (privateCampaignsAmong). Visibility inside the index walk instead let a filter matching mostly hidden
 * events walk them all for one page (#43 F2). `next` is the last event served, or, when the page
 * stopped at `maxExamined` before it filled, the last event examined (the page is then short, even
 * empty, and more may follow); null when the page read everything there was.
 * Tables events, campaign_privacy.
 */
export async function pageEvents(
  db: Queryable,
  {
    after,
    limit,
    filter,
    visible,
    maxExamined = MAX_EXAMINED_PER_PAGE,
  }: { after: string; limit: number; filter: EventFilter; visible: CampaignVisibility; maxExamined?: number },
): Promise<EventPage> {
  const rows: EventRow[] = [];
  let cursor = after;
  let examined = 0;
  for (;;) {
    // The first chunk is the page's size (most pages are filled by it); each next one doubles, up to
    // CHUNK_MAX, so a long run of hidden events costs a few statements, not one per page size.
    const size = Math.min(Math.max(limit, examined), CHUNK_MAX, maxExamined - examined);
    const chunk = await listEvents(db, { after: cursor, limit: size, filter, visible: 'all' });
    examined += chunk.length;
    for (const row of await allowedBy(db, visible, chunk)) {
      rows.push(row);
      if (rows.length === limit) return { rows, next: row.id };
    }
    if (chunk.length < size) return { rows, next: rows.at(-1)?.id ?? null };
    cursor = chunk[chunk.length - 1]!.id;
    if (examined >= maxExamined) return { rows, next: cursor };
  }
}

/** Of `rows`, those `visible` allows (order kept): no campaign, a public one, or an allowed private one. */
async function allowedBy(db: Queryable, visible: CampaignVisibility, rows: EventRow[]): Promise<EventRow[]> {
  if (visible === 'all') return rows;
  const hidden = await privateCampaignsAmong(db, campaignIdsOf(rows));
  if (visible !== 'none') for (const id of visible) hidden.delete(id);
  return withoutCampaigns(rows, hidden);
}

/** Pure: the distinct campaigns `rows` are about. */
export function campaignIdsOf(rows: readonly Pick<EventRow, 'campaign_db_id'>[]): string[] {
  return [...new Set(rows.map((r) => r.campaign_db_id).filter((id): id is string => id !== null))];
}

/** Pure: `rows` less those about a campaign of `hidden` (order kept; a copy). */
export function withoutCampaigns<T extends Pick<EventRow, 'campaign_db_id'>>(
  rows: readonly T[],
  hidden: ReadonlySet<string>,
): T[] {
  return rows.filter((r) => r.campaign_db_id === null || !hidden.has(r.campaign_db_id));
}

/** What readEvents read: the rows, and the id up to which it examined the log. */
export type ReadEventsResult = {
  rows: EventRow[];
  /**
   * Every event with id ≤ `examined` that matches was returned (or is not visible): a reader
   * resumes after it, not after its last row, so it never examines the same entries again.
   */
  examined: string;
};

/**
 * As listEvents, and how far it looked: with fewer than `limit` rows, up to the newest id committed
 * when the read started (ids become visible in increasing order, domain/tables/events.ts, so
 * nothing at or below it can appear later). A stream advances its cursor to `examined`, so a
 * filter that matches nothing new costs an index probe, not a re-read from its last match (#43 F2).
 * Table events.
 */
export async function readEvents(db: Queryable, p: Omit<ListEventsParams, 'upTo'>): Promise<ReadEventsResult> {
  const head = await latestCommittedEventId(db);
  const rows = await listEvents(db, { ...p, upTo: head });
  if (rows.length >= p.limit) return { rows, examined: rows[rows.length - 1]!.id };
  return { rows, examined: BigInt(head) > BigInt(p.after) ? head : p.after };
}

/** The newest committed event id (0 when none). Table events. */
export async function latestCommittedEventId(db: Queryable): Promise<string> {
  const { rows } = await db.query<{ head: string }>('SELECT coalesce(max(id), 0)::text AS head FROM events');
  return rows[0]!.head;
}

/**
 * Every event with id > `after` (no filter, no visibility), oldest first, at most `limit`: what
 * the API's shared feed reads once for all its streams. Whether a reader may see each one is
 * decided when it is sent (eventReader.ts), never here: privacy may change in between (#43 F3).
 * Table events.
 */
export async function readFeed(db: Queryable, { after, limit }: { after: string; limit: number }): Promise<EventRow[]> {
  const { rows } = await db.query<EventRow>(
    `SELECT ${EVENT_COLUMNS} FROM events e WHERE e.id > $1::bigint ORDER BY e.id LIMIT $2`,
    [after, limit],
  );
  return rows;
}

/** Pure: whether `row` passes `filter`, as listEvents' WHERE clause decides (visibility apart). */
export function matchesFilter(row: EventRow, filter: EventFilter): boolean {
  return (
    (!filter.types?.length || filter.types.includes(row.type)) &&
    (filter.chainId === undefined || row.chain_id === filter.chainId) &&
    (filter.campaignDbId === undefined || row.campaign_db_id === filter.campaignDbId) &&
    (filter.opportunityId === undefined || row.opportunity_id === filter.opportunityId) &&
    (filter.address === undefined || row.address === filter.address.toLowerCase()) &&
    (filter.creator === undefined || row.creator === filter.creator.toLowerCase())
  );
}

/**
 * The oldest id a reader can still get: the smallest retained, or (all deleted) the next one the
 * sequence hands out. Table events.
 */
export async function oldestEventId(db: Queryable): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT coalesce((SELECT min(id) FROM events),
       (SELECT last_value + CASE WHEN is_called THEN 1 ELSE 0 END FROM events_id_seq))::text AS id`,
  );
  return rows[0]!.id;
}

/** The newest id handed out so far (0 when none): `after=latest` starts after it. Table events. */
export async function latestEventId(db: Queryable): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    'SELECT (CASE WHEN is_called THEN last_value ELSE 0 END)::text AS id FROM events_id_seq',
  );
  return rows[0]!.id;
}

/**
 * Whether resuming after `after` may miss deleted events: the caller saw id `after` (> 0) and
 * retention has since deleted it and possibly ids after it. Ids a rolled-back transaction took
 * from the sequence also leave gaps, so this errs on the side of telling the client.
 */
export function isExpired(after: string, oldest: string): boolean {
  return BigInt(after) > 0n && BigInt(after) < BigInt(oldest) - 1n;
}
