import type { PgClient, PgPool } from '../../internal/pg.js';
import type { CampaignMetrics, OpportunityMetrics } from '../transform/computeMetrics.js';

export type MetricsCampaignRow = {
  id: string;
  campaign_id: string;
  opportunity_id: string;
  chain_id: number;
  reward_token: string;
  reward_token_id: string | null;
  reward_decimals: number | null;
  reward_symbol: string | null;
  reward_name: string | null;
  reward_icon: string | null;
  reward_verified: boolean | null;
  reward_is_native: boolean | null;
  reward_is_test: boolean | null;
  reward_type: 'TOKEN' | 'PRETGE' | 'POINT' | null;
  reward_display_symbol: string | null;
  amount: string;
  start_timestamp: string;
  end_timestamp: string;
  /** campaign_privacy.is_private: the campaign keeps its own metrics, its opportunity's aggregates leave it out. */
  is_private: boolean;
};

/** Every current campaign with its reward token and privacy, for the metrics job. */
export async function loadMetricsCampaigns(db: PgPool | PgClient, chainIds: number[]): Promise<MetricsCampaignRow[]> {
  const { rows } = await db.query<MetricsCampaignRow>(
    `SELECT c.id, c.campaign_id, c.opportunity_id, c.distribution_chain_id AS chain_id, c.reward_token, t.id AS reward_token_id,
       t.decimals AS reward_decimals, t.symbol AS reward_symbol, t.name AS reward_name, t.icon AS reward_icon, t.verified AS reward_verified,
       t.is_native AS reward_is_native, t.is_test AS reward_is_test, t.type AS reward_type, t.display_symbol AS reward_display_symbol,
       c.amount::text AS amount, c.start_timestamp, c.end_timestamp,
       COALESCE(pv.is_private, false) AS is_private
     FROM campaigns_current c LEFT JOIN tokens t ON t.chain_id = c.distribution_chain_id AND t.address = c.reward_token
     LEFT JOIN campaign_privacy pv ON pv.campaign_db_id = c.id
     WHERE c.distribution_chain_id = ANY($1::int[]) AND c.opportunity_id IS NOT NULL`,
    [chainIds],
  );
  return rows;
}

/** Opportunities of the given chains (TVL targets), with their type (how the identifier is read). */
export async function loadMetricsOpportunities(
  db: PgPool | PgClient,
  chainIds: number[],
): Promise<{ id: string; chain_id: number; type: string; identifier: string }[]> {
  const { rows } = await db.query<{ id: string; chain_id: number; type: string; identifier: string }>(
    'SELECT id, chain_id, type, identifier FROM opportunities WHERE chain_id = ANY($1::int[])',
    [chainIds],
  );
  return rows;
}

/**
 * Upserts campaign metrics and a snapshot at `ts` for the campaigns LIVE then (a campaign's history
 * exists only inside its [start, end) window).
 * @returns ids whose served figures changed (phase, computation status, APR, daily rewards, TVL).
 */
export async function upsertCampaignMetrics(
  client: PgClient,
  metrics: CampaignMetrics[],
  computedAt: Date,
  ts: Date,
): Promise<string[]> {
  if (!metrics.length) return [];
  const cols = [
    metrics.map((m) => m.id),
    metrics.map((m) => m.phase),
    metrics.map((m) => m.dailyRewardsUsd),
    metrics.map((m) => m.dailyAmount),
    metrics.map((m) => m.apr),
    metrics.map((m) => m.tvlUsd),
    metrics.map((m) => JSON.stringify(m.campaignStatus)),
    metrics.map((m) => JSON.stringify(m.inputs)),
  ];
  const { rows } = await client.query<{ id: string }>(
    `WITH input AS (
       SELECT * FROM unnest($1::text[], $2::text[], $3::float8[], $4::numeric[], $5::float8[], $6::float8[], $7::jsonb[], $8::jsonb[])
         AS i(id, status, daily, daily_amount, apr, tvl, campaign_status, inputs)),
     changed AS (
       SELECT i.id FROM input i LEFT JOIN campaign_metrics m ON m.campaign_db_id = i.id
       WHERE m.campaign_db_id IS NULL OR (m.status, m.daily_rewards_usd, m.apr, m.tvl_usd, m.campaign_status->>'status')
         IS DISTINCT FROM (i.status, i.daily, i.apr, i.tvl, i.campaign_status->>'status')),
     upsert AS (
       INSERT INTO campaign_metrics (campaign_db_id, computed_at, status, daily_rewards_usd, daily_amount, apr, tvl_usd, campaign_status, inputs)
       SELECT id, $9, status, daily, daily_amount, apr, tvl, campaign_status, inputs FROM input
       ON CONFLICT (campaign_db_id) DO UPDATE SET computed_at = EXCLUDED.computed_at, status = EXCLUDED.status,
         daily_rewards_usd = EXCLUDED.daily_rewards_usd, daily_amount = EXCLUDED.daily_amount, apr = EXCLUDED.apr, tvl_usd = EXCLUDED.tvl_usd,
         campaign_status = EXCLUDED.campaign_status, inputs = EXCLUDED.inputs),
     snap AS (
       INSERT INTO campaign_snapshots (campaign_db_id, ts, apr, tvl, daily_rewards) SELECT id, $10, apr, tvl, daily FROM input WHERE status = 'LIVE'
       ON CONFLICT (campaign_db_id, ts) DO UPDATE SET apr = EXCLUDED.apr, tvl = EXCLUDED.tvl, daily_rewards = EXCLUDED.daily_rewards)
     SELECT id FROM changed`,
    [...cols, computedAt, ts],
  );
  return rows.map((r) => r.id);
}

/**
 * Upserts opportunity metrics and a snapshot at `ts` for the opportunities with a campaign started by then
 * (its native APR with its status: an unknown one, stored 0, is left out of the history's means).
 * @returns ids whose served figures changed.
 */
export async function upsertOpportunityMetrics(
  client: PgClient,
  metrics: OpportunityMetrics[],
  computedAt: Date,
  ts: Date,
): Promise<string[]> {
  if (!metrics.length) return [];
  const cols = [
    metrics.map((m) => m.opportunityId),
    metrics.map((m) => m.tvl),
    metrics.map((m) => m.apr),
    metrics.map((m) => m.dailyRewards),
    metrics.map((m) => m.nativeApr),
    metrics.map((m) => m.maxDailyRewards),
    metrics.map((m) => JSON.stringify(m.records)),
    metrics.map((m) => JSON.stringify(m.inputs)),
    metrics.map((m) => m.liveCampaigns),
    metrics.map((m) => m.started),
    metrics.map((m) => JSON.stringify(m.unpricedRewardTokens)),
    metrics.map((m) => m.tvlStatus),
    metrics.map((m) => m.records.nativeAprRecord.status),
  ];
  const { rows } = await client.query<{ id: string }>(
    // The token lists travel as JSON (a text[][] parameter must be rectangular).
    `WITH raw AS (
       SELECT * FROM unnest($1::text[], $2::float8[], $3::float8[], $4::float8[], $5::float8[], $6::float8[], $7::jsonb[], $8::jsonb[], $9::int[], $10::bool[], $13::jsonb[], $14::text[], $15::text[])
         AS i(id, tvl, apr, daily, native_apr, max_daily, records, inputs, live, started, unpriced_json, tvl_status, native_apr_status)),
     input AS (
       SELECT r.*, ARRAY(SELECT jsonb_array_elements_text(r.unpriced_json)) AS unpriced FROM raw r),
     changed AS (
       SELECT i.id FROM input i LEFT JOIN opportunity_metrics m ON m.opportunity_id = i.id
       WHERE m.opportunity_id IS NULL OR (m.tvl, m.apr, m.daily_rewards, m.native_apr, m.max_daily_rewards, m.live_campaigns, m.unpriced_reward_tokens, m.tvl_status, m.records->'nativeAprRecord'->>'status')
         IS DISTINCT FROM (i.tvl, i.apr, i.daily, i.native_apr, i.max_daily, i.live, i.unpriced, i.tvl_status, i.records->'nativeAprRecord'->>'status')),
     upsert AS (
       INSERT INTO opportunity_metrics (opportunity_id, computed_at, tvl, apr, daily_rewards, native_apr, max_daily_rewards, records, inputs, live_campaigns, unpriced_reward_tokens, tvl_status)
       SELECT id, $11, tvl, apr, daily, native_apr, max_daily, records, inputs, live, unpriced, tvl_status FROM input
       ON CONFLICT (opportunity_id) DO UPDATE SET computed_at = EXCLUDED.computed_at, tvl = EXCLUDED.tvl, apr = EXCLUDED.apr,
         daily_rewards = EXCLUDED.daily_rewards, native_apr = EXCLUDED.native_apr, max_daily_rewards = EXCLUDED.max_daily_rewards,
         records = EXCLUDED.records, inputs = EXCLUDED.inputs, live_campaigns = EXCLUDED.live_campaigns,
         unpriced_reward_tokens = EXCLUDED.unpriced_reward_tokens, tvl_status = EXCLUDED.tvl_status),
     snap AS (
       INSERT INTO opportunity_snapshots (opportunity_id, ts, apr, tvl, native_apr, native_apr_status, daily_rewards)
       SELECT id, $12, apr, tvl, native_apr, native_apr_status, daily FROM input WHERE started
       ON CONFLICT (opportunity_id, ts) DO UPDATE SET apr = EXCLUDED.apr, tvl = EXCLUDED.tvl, native_apr = EXCLUDED.native_apr,
         native_apr_status = EXCLUDED.native_apr_status, daily_rewards = EXCLUDED.daily_rewards)
     SELECT id FROM changed`,
    [...cols.slice(0, 10), computedAt, ts, cols[10], cols[11], cols[12]],
  );
  return rows.map((r) => r.id);
}

/**
 * History snapshots only (backfills): the current figures are left untouched. As the upserts: LIVE
 * campaigns only, opportunities with a campaign started by `ts`.
 */
export async function insertSnapshots(
  client: PgClient,
  allCampaigns: CampaignMetrics[],
  allOpportunities: OpportunityMetrics[],
  ts: Date,
): Promise<void> {
  const campaigns = allCampaigns.filter((m) => m.phase === 'LIVE');
  const opportunities = allOpportunities.filter((m) => m.started);
  await client.query(
    `INSERT INTO campaign_snapshots (campaign_db_id, ts, apr, tvl, daily_rewards)
     SELECT id, $4, apr, tvl, daily FROM unnest($1::text[], $2::float8[], $3::float8[], $5::float8[]) AS i(id, apr, tvl, daily)
     ON CONFLICT (campaign_db_id, ts) DO UPDATE SET apr = EXCLUDED.apr, tvl = EXCLUDED.tvl, daily_rewards = EXCLUDED.daily_rewards`,
    [
      campaigns.map((m) => m.id),
      campaigns.map((m) => m.apr),
      campaigns.map((m) => m.tvlUsd),
      ts,
      campaigns.map((m) => m.dailyRewardsUsd),
    ],
  );
  await client.query(
    `INSERT INTO opportunity_snapshots (opportunity_id, ts, apr, tvl, native_apr, native_apr_status, daily_rewards)
     SELECT id, $6, apr, tvl, native_apr, native_apr_status, daily
     FROM unnest($1::text[], $2::float8[], $3::float8[], $4::float8[], $7::text[], $5::float8[]) AS i(id, apr, tvl, native_apr, native_apr_status, daily)
     ON CONFLICT (opportunity_id, ts) DO UPDATE SET apr = EXCLUDED.apr, tvl = EXCLUDED.tvl, native_apr = EXCLUDED.native_apr,
       native_apr_status = EXCLUDED.native_apr_status, daily_rewards = EXCLUDED.daily_rewards`,
    [
      opportunities.map((m) => m.opportunityId),
      opportunities.map((m) => m.apr),
      opportunities.map((m) => m.tvl),
      opportunities.map((m) => m.nativeApr),
      opportunities.map((m) => m.dailyRewards),
      ts,
      opportunities.map((m) => m.records.nativeAprRecord.status),
    ],
  );
}
