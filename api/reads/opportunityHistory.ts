import type { PgPool } from '../../internal/pg.js';

export type HistoryGrain = 'hour' | 'day' | 'week' | 'month';
export type HistoryMetric = 'apr' | 'tvl' | 'native_apr' | 'daily_rewards';

export type LoadOpportunityHistoryParams = {
  opportunityId: string;
  metric: HistoryMetric;
  grain: HistoryGrain;
  /** Inclusive Unix-seconds window on the snapshot time. */
  from?: number;
  to?: number;
  page: number;
  items: number;
};

/**
 * One page of an opportunity's history: snapshots grouped into `date_trunc(grain, ts)` buckets (UTC),
 * newest bucket first, each the time-weighted mean of its snapshots: a snapshot's value holds until
 * the next snapshot (the last one until now), counted within its own bucket, so four minutes of
 * frequent snapshots weigh four minutes against eighteen hours of sparse ones. A bucket whose
 * snapshots all weigh nothing (one snapshot taken now) is their plain mean. An unknown value (a NULL
 * tvl or apr: the TVL could not be known then, #42; a native APR whose native_apr_status is not `ok`)
 * weighs nothing, never counts as 0: the mean is over the known time of the bucket, and a bucket with no
 * known value is null.
 * Table: opportunity_snapshots (its primary key (opportunity_id, ts) serves the window's order).
 * @returns bucket start (Unix seconds) and weighted value (null: unknown) per bucket.
 */
export async function loadOpportunityHistory(
  db: PgPool,
  p: LoadOpportunityHistoryParams,
): Promise<{ bucket: number; value: number | null }[]> {
  // A native APR is stored 0 when unknown, its status beside it: only a known one (or one from before the
  // status was recorded, NULL) is a value (docs/api-behaviour.md#native-apr).
  const column = {
    apr: 'apr',
    tvl: 'tvl',
    native_apr: "CASE WHEN native_apr_status IS NULL OR native_apr_status = 'ok' THEN native_apr END",
    daily_rewards: 'daily_rewards',
  }[p.metric];
  const { rows } = await db.query<{ bucket: string; value: number | null }>(
    `WITH s AS (
       SELECT ts, ${column} AS v, date_trunc($2, ts AT TIME ZONE 'UTC') AS b, lead(ts) OVER (ORDER BY ts) AS next
       FROM opportunity_snapshots
       WHERE opportunity_id = $1 AND ($3::bigint IS NULL OR ts >= to_timestamp($3)) AND ($4::bigint IS NULL OR ts <= to_timestamp($4))
     ), w AS (
       SELECT b, v, greatest(extract(epoch FROM
         least(coalesce(next, now()), (b + ('1 ' || $2)::interval) AT TIME ZONE 'UTC') - ts), 0)::float8 AS weight
       FROM s
     )
     SELECT extract(epoch FROM b AT TIME ZONE 'UTC')::bigint AS bucket,
       coalesce(sum(v * weight) / nullif(sum(weight) FILTER (WHERE v IS NOT NULL), 0), avg(v))::float8 AS value
     FROM w GROUP BY b ORDER BY b DESC LIMIT $5 OFFSET $6`,
    [p.opportunityId, p.grain, p.from ?? null, p.to ?? null, p.items, p.page * p.items],
  );
  // 15 significant digits: the weighting's rounding noise never shows (a bucket of equal values is that value).
  return rows.map((r) => ({
    bucket: Number(r.bucket),
    value: r.value === null ? null : Number(r.value.toPrecision(15)),
  }));
}

export type StoringCampaignRow = {
  id: string;
  opportunity_id: string | null;
  campaign_id: string;
  compute_chain_id: number;
  campaign_type: number;
  main_parameter: string | null;
  start_timestamp: string;
  end_timestamp: string;
  parent_campaign_id: string | null;
};

/** A public projection leaves private campaigns (and what hangs below them) out (README "Campaign visibility"). */
const PUBLIC_CAMPAIGN =
  'NOT EXISTS (SELECT 1 FROM campaign_privacy pv WHERE pv.campaign_db_id = c.id AND pv.is_private)';

/**
 * Every current campaign of an opportunity plus, transitively, their sub-campaigns (which may sit
 * in other opportunities), for the storing-ids trees; private campaigns and their subtrees are left out. Tables: campaigns_current, campaign_privacy.
 */
export async function loadOpportunityCampaignTree(db: PgPool, opportunityId: string): Promise<StoringCampaignRow[]> {
  const { rows } = await db.query<StoringCampaignRow>(
    `WITH RECURSIVE tree AS (
       SELECT c.id, c.opportunity_id, c.campaign_id, c.compute_chain_id, c.campaign_type, c.main_parameter, c.start_timestamp::text, c.end_timestamp::text, c.parent_campaign_id
       FROM campaigns_current c WHERE c.opportunity_id = $1 AND ${PUBLIC_CAMPAIGN}
       UNION
       SELECT c.id, c.opportunity_id, c.campaign_id, c.compute_chain_id, c.campaign_type, c.main_parameter, c.start_timestamp::text, c.end_timestamp::text, c.parent_campaign_id
       FROM campaigns_current c JOIN tree t ON c.parent_campaign_id = t.id WHERE ${PUBLIC_CAMPAIGN})
     SELECT * FROM tree`,
    [opportunityId],
  );
  return rows;
}
