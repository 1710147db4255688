import type { Queryable } from '../../internal/pg.js';
import { type CampaignVisibility, privateCampaignsAmong } from '../visibility/campaignVisibility.js';

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
 * Filters of one read; `campaignDbId` is already resolved through the visibility rule. Each has its
 * own (column, id) index of the events table (migrations 2026_11_30_01 and 2026_12_07_20); a read
 * walks one of them (walkEvents) and applies the others to what it walked.
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
const MAX_ID = '9223372036854775807';

/** The columns of an EventRow, from the events row (or walked row) `a`. */
const eventColumns = (
  a: string,
) => `${a}.id::text AS id, ${a}.type, ${a}.chain_id, ${a}.campaign_db_id, ${a}.opportunity_id,
  ${a}.address, ${a}.root, ${a}.block_number::text AS block_number, ${a}.retracted, ${a}.payload, ${a}.created_at, ${a}.creator`;

/** The index a read walks: one filter's (column, id), each type's (type, id), or the log by id. */
export type EventWalk =
  | { by: 'campaign_db_id' | 'opportunity_id' | 'address' | 'creator' | 'chain_id' }
  | { by: 'type'; types: string[] }
  | { by: 'id' };

/**
 * Pure: the index a read of `filter` walks, by a fixed priority from the narrowest subject to the
 * broadest: a campaign, an opportunity, an address, a creator (all its campaigns), the types, a
 * chain; no filter walks the log by id. The other filters are applied to the entries walked, so
 * what one statement examines is bounded by its LIMIT whatever the combination: with the LIMIT on
 * rows matching every filter, two filters that never match together walked one index to its end
 * (audit h-audit, eventFilterIntersection).
 */
export function eventWalkOf(filter: EventFilter): EventWalk {
  if (filter.campaignDbId !== undefined) return { by: 'campaign_db_id' };
  if (filter.opportunityId !== undefined) return { by: 'opportunity_id' };
  if (filter.address !== undefined) return { by: 'address' };
  if (filter.creator !== undefined) return { by: 'creator' };
  if (filter.types?.length) return { by: 'type', types: [...new Set(filter.types)] };
  if (filter.chainId !== undefined) return { by: 'chain_id' };
  return { by: 'id' };
}

/** Each filter's parameter in walkEvents' statement (and its type). */
const FILTER_PARAMS = {
  chain_id: '$3::int',
  campaign_db_id: '$4::text',
  opportunity_id: '$5::text',
  address: '$6::text',
  creator: '$7::text',
} as const;

/** Every filter on the walked row `a` (bound at $3 to $8, each null when absent): matchesFilter in SQL. */
const matchesSql = (a: string) => `($3::int IS NULL OR ${a}.chain_id = $3::int)
  AND ($4::text IS NULL OR ${a}.campaign_db_id = $4::text) AND ($5::text IS NULL OR ${a}.opportunity_id = $5::text)
  AND ($6::text IS NULL OR ${a}.address = $6::text) AND ($7::text IS NULL OR ${a}.creator = $7::text)
  AND ($8::text[] IS NULL OR ${a}.type = ANY($8::text[]))`;

/**
 * The walk's statement: at most $9 entries of each walked index after $1, up to $2, each tagged with
 * its walk. The id bounds are written on (column, id), which only that index serves: on `id` alone,
 * a short id range looks cheaper by the primary key, which then reads every row of the range.
 */
function walkSql(walk: EventWalk): string {
  if (walk.by === 'id')
    return `SELECT e.*, ''::text AS walk FROM events e WHERE e.id > $1::bigint AND e.id <= $2::bigint ORDER BY e.id LIMIT $9`;
  if (walk.by === 'type')
    return `SELECT e.*, t.type AS walk FROM unnest($8::text[]) AS t(type) CROSS JOIN LATERAL (
        SELECT e.* FROM events e WHERE e.type = t.type AND (e.type, e.id) > (t.type, $1::bigint)
          AND (e.type, e.id) <= (t.type, $2::bigint) ORDER BY e.type, e.id LIMIT $9) e`;
  const v = FILTER_PARAMS[walk.by];
  return `SELECT e.*, ''::text AS walk FROM events e WHERE e.${walk.by} = ${v} AND (e.${walk.by}, e.id) > (${v}, $1::bigint)
      AND (e.${walk.by}, e.id) <= (${v}, $2::bigint) ORDER BY e.${walk.by}, e.id LIMIT $9`;
}

export type WalkEventsParams = {
  after: string;
  /** Most index entries the walk examines (each type's index gets its share, at least one). */
  size: number;
  filter: EventFilter;
  /** Only events with id ≤ this (a read level with a head read before it). */
  upTo?: string;
};

export type WalkEventsResult = {
  /** The events examined that match every filter, oldest first (visibility not applied). */
  rows: EventRow[];
  /** Index entries the walk read. */
  examined: number;
  /**
   * Where the next walk resumes: every matching event with id ≤ it is in `rows`; null when the
   * walk reached `upTo` (or the end of the log), nothing more matching before it.
   */
  next: string | null;
};

/**
 * Events after `after` matching `filter`, examining at most about `size` index entries: the index
 * eventWalkOf picks is walked for `size` entries (several types: each type's index for its share,
 * up to where every full walk has reached), and the other filters are applied to those entries.
 * One statement; visibility is the caller's (pageEvents, readEvents). Table events.
 */
export async function walkEvents(
  db: Queryable,
  { after, size, filter, upTo }: WalkEventsParams,
): Promise<WalkEventsResult> {
  const walk = eventWalkOf(filter);
  const share = Math.max(1, Math.floor(size / (walk.by === 'type' ? walk.types.length : 1)));
  // `bound`: the lowest id a full walk (one that hit its LIMIT) reached; each walk has read every
  // entry of its index up to it, so what matches up to it is complete. A walk short of its LIMIT
  // read its index up to `upTo`. The last row up to `bound` comes back even when it does not match
  // (`matches` false), and so does one empty row when nothing matches: `bound` and `walked` ride on it.
  const { rows } = await db.query<EventRow & { matches: boolean | null; bound: string | null; walked: number }>(
    `WITH walks AS MATERIALIZED (${walkSql(walk)}),
       stats AS (SELECT walk, count(*) AS n, max(id) AS last FROM walks GROUP BY walk),
       bound AS (SELECT (SELECT min(last) FROM stats WHERE n >= $9) AS last,
         (SELECT coalesce(sum(n), 0) FROM stats)::int AS walked)
     SELECT ${eventColumns('w')}, (${matchesSql('w')}) AS matches, b.last::text AS bound, b.walked
     FROM bound b LEFT JOIN walks w ON (b.last IS NULL OR w.id <= b.last) AND ((${matchesSql('w')}) OR w.id = b.last)
     ORDER BY w.id`,
    [
      after,
      upTo ?? MAX_ID,
      filter.chainId ?? null,
      filter.campaignDbId ?? null,
      filter.opportunityId ?? null,
      filter.address?.toLowerCase() ?? null,
      filter.creator?.toLowerCase() ?? null,
      filter.types?.length ? [...new Set(filter.types)] : null,
      share,
    ],
  );
  const first = rows[0];
  return {
    rows: rows.filter((r) => r.id !== null && r.matches).map(({ matches, bound, walked, ...row }) => row),
    examined: first?.walked ?? 0,
    next: first?.bound ?? null,
  };
}

/** Most events one page examines, visible or not: a page of `limit` stops here even when short. */
export const MAX_EXAMINED_PER_PAGE = 5_000;

/** Most events one statement of a page reads. */
const CHUNK_MAX = 1_000;

/** One page of events for a reader: the rows it may see, and where to read on from (null: level with the log). */
export type EventPage = { rows: EventRow[]; next: string | null };

export type PageEventsParams = {
  after: string;
  limit: number;
  filter: EventFilter;
  visible: CampaignVisibility;
  /** Only events with id ≤ this (a webhook's read, level with a head read before it). */
  upTo?: string;
  maxExamined?: number;
};

/**
 * A page of the events after `after` that match `filter` and that `visible` allows, at most `limit`,
 * examining at most `maxExamined` index entries, whatever the filters: one index is walked in chunks
 * (walkEvents: the other filters applied to each chunk), and the chunk's private campaigns are asked
 * once (privateCampaignsAmong). Visibility inside the index walk instead let a filter matching mostly
 * hidden events walk them all for one page (#43 F2), and a LIMIT on rows matching every filter let two
 * filters that never match together walk a whole index (audit h-audit). `next` is the last event
 * served, or, when the page stopped at `maxExamined` before it filled, the last entry examined (the
 * page is then short, even empty, and more may follow; that entry may be an event the caller does not
 * see: docs/api-behaviour.md "Event log readers"); null when the page read everything there was.
 * Tables events, campaign_privacy.
 */
export async function pageEvents(
  db: Queryable,
  { after, limit, filter, visible, upTo, maxExamined = MAX_EXAMINED_PER_PAGE }: PageEventsParams,
): Promise<EventPage> {
  const rows: EventRow[] = [];
  let cursor = after;
  let examined = 0;
  for (;;) {
    // The first chunk is the page's size (most pages are filled by it); each next one doubles, up to
    // CHUNK_MAX, so a long run of hidden or unmatched events costs a few statements, not one per page size.
    const size = Math.min(Math.max(limit, examined), CHUNK_MAX, maxExamined - examined);
    const chunk = await walkEvents(db, { after: cursor, size, filter, ...(upTo ? { upTo } : {}) });
    examined += chunk.examined;
    for (const row of await allowedBy(db, visible, chunk.rows)) {
      rows.push(row);
      if (rows.length === limit) return { rows, next: row.id };
    }
    if (chunk.next === null) return { rows, next: rows.at(-1)?.id ?? null };
    cursor = chunk.next;
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
  /** Whether events after `examined` may match (the walk stopped at its size); false: level with the head. */
  more: boolean;
};

/**
 * Events after `after` matching `filter` that `visible` allows, examining at most about `limit`
 * index entries (walkEvents), and how far it looked: when the walk did not stop at its size, up to
 * the newest id committed when the read started (ids become visible in increasing order,
 * domain/tables/events.ts, so nothing at or below it can appear later). A stream advances its
 * cursor to `examined` and reads again while `more`, so a filter that matches nothing new costs an
 * index probe, not a re-read from its last match (#43 F2), and filters that never match together
 * cost `limit` entries per statement, not the whole index (audit h-audit).
 * Tables events, campaign_privacy.
 */
export async function readEvents(
  db: Queryable,
  { after, limit, filter, visible }: { after: string; limit: number; filter: EventFilter; visible: CampaignVisibility },
): Promise<ReadEventsResult> {
  const head = await latestCommittedEventId(db);
  const walk = await walkEvents(db, { after, size: limit, filter, upTo: head });
  const rows = await allowedBy(db, visible, walk.rows);
  if (walk.next !== null) return { rows, examined: walk.next, more: true };
  return { rows, examined: BigInt(head) > BigInt(after) ? head : after, more: false };
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
    `SELECT ${eventColumns('e')} FROM events e WHERE e.id > $1::bigint ORDER BY e.id LIMIT $2`,
    [after, limit],
  );
  return rows;
}

/** Pure: whether `row` passes `filter`, as walkEvents' statement decides (visibility apart). */
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
