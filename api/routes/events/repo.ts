import type { Queryable } from '../../../internal/pg.js';
import {
  type CampaignVisibility,
  publicCampaignSql,
  visibilitySqlParams,
  visibleCampaignSql,
} from '../../visibility/campaignVisibility.js';

/** An events row as the routes read it (bigints as strings, as pg returns them). */
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
};

/** Filters of one read; `campaignDbId` is already resolved through the visibility rule. */
export type EventFilter = {
  types?: readonly string[];
  chainId?: number;
  campaignDbId?: string;
  opportunityId?: string;
  address?: string;
  /** Events about campaigns this address created. */
  creator?: string;
};

/** The columns of an EventRow. */
const EVENT_COLUMNS = `e.id::text AS id, e.type, e.chain_id, e.campaign_db_id, e.opportunity_id, e.address, e.root,
  e.block_number::text AS block_number, e.retracted, e.payload, e.created_at`;

/**
 * Events with id > `after` matching `filter`, oldest first, at most `limit`. An event about a
 * campaign passes the one visibility rule (visibleCampaignSql) on that campaign's id, so a private
 * campaign's events reach only callers who may see it. Table events (campaign_privacy).
 */
export async function listEvents(
  db: Queryable,
  { after, limit, filter, visible }: { after: string; limit: number; filter: EventFilter; visible: CampaignVisibility },
): Promise<EventRow[]> {
  const { rows } = await db.query<EventRow>(
    `SELECT ${EVENT_COLUMNS}
     FROM events e CROSS JOIN LATERAL (SELECT e.campaign_db_id AS id) c
     WHERE e.id > $1::bigint
       AND ($3::text[] IS NULL OR e.type = ANY($3::text[]))
       AND ($4::int IS NULL OR e.chain_id = $4)
       AND ($5::text IS NULL OR e.campaign_db_id = $5)
       AND ($6::text IS NULL OR e.opportunity_id = $6)
       AND ($7::text IS NULL OR e.address = $7)
       AND ($10::text IS NULL OR EXISTS (SELECT 1 FROM campaigns cr WHERE cr.id = e.campaign_db_id AND cr.creator = $10))
       AND (e.campaign_db_id IS NULL OR ${visibleCampaignSql('c', 8, 9)})
     ORDER BY e.id LIMIT $2`,
    [
      after,
      limit,
      filter.types?.length ? filter.types : null,
      filter.chainId ?? null,
      filter.campaignDbId ?? null,
      filter.opportunityId ?? null,
      filter.address?.toLowerCase() ?? null,
      ...visibilitySqlParams(visible),
      filter.creator?.toLowerCase() ?? null,
    ],
  );
  return rows;
}

/**
 * An events row as the shared feed reads it: `public` when every caller may see it (no campaign, or
 * a public one), and the creator of its campaign (for the `creator` filter).
 */
export type FeedRow = EventRow & { public: boolean; creator: string | null };

/**
 * Every event with id > `after` (no filter), oldest first, at most `limit`, each marked `public`
 * by the visibility rule's public predicate: what the API's shared feed reads once for all its
 * streams (api/routes/events/eventFeed.ts). Table events (campaign_privacy).
 */
export async function readFeed(db: Queryable, { after, limit }: { after: string; limit: number }): Promise<FeedRow[]> {
  const { rows } = await db.query<FeedRow>(
    `SELECT ${EVENT_COLUMNS}, (e.campaign_db_id IS NULL OR ${publicCampaignSql('c')}) AS public,
       (SELECT cr.creator FROM campaigns cr WHERE cr.id = e.campaign_db_id) AS creator
     FROM events e CROSS JOIN LATERAL (SELECT e.campaign_db_id AS id) c
     WHERE e.id > $1::bigint ORDER BY e.id LIMIT $2`,
    [after, limit],
  );
  return rows;
}

/** Pure: whether `row` passes `filter`, as listEvents' WHERE clause decides (visibility apart). */
export function matchesFilter(row: FeedRow, filter: EventFilter): boolean {
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
