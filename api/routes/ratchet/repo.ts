import type { BenchmarkRate } from '../../../domain/benchmarkRates.js';
import type { PgPool } from '../../../internal/pg.js';

/** Mean TVL of an opportunity over [from, to) from its history snapshots; null without snapshots. */
export async function meanTvl(db: PgPool, opportunityId: string, from: number, to: number): Promise<number | null> {
  const { rows } = await db.query<{ mean: number | null }>(
    'SELECT avg(tvl)::float8 AS mean FROM opportunity_snapshots WHERE opportunity_id = $1 AND ts >= to_timestamp($2) AND ts < to_timestamp($3)',
    [opportunityId, from, to],
  );
  return rows[0]?.mean ?? null;
}

/** Stored benchmark rates published on or before `at`'s day (the year before it is plenty to carry forward). */
export async function loadBenchmarkRates(db: PgPool, at: number): Promise<BenchmarkRate[]> {
  const { rows } = await db.query<{ day: string; rate: number }>(
    `SELECT to_char(day, 'YYYY-MM-DD') AS day, rate FROM benchmark_rates WHERE day <= to_timestamp($1)::date AND day > to_timestamp($1)::date - 400 ORDER BY day`,
    [at],
  );
  return rows;
}

/**
 * The current configuration of a campaign needed by the ratchet. Distribution settings come from
 * the stored configuration (its `distributionMethodParameters`) last attached to the campaign on
 * trusted grounds (its on-chain data commits to the hash, or its creator or the back office attached
 * it: api/routes/config/attachGrounds.ts), else from the stored configuration its on-chain data
 * commits to, else from the campaign's own params. Associations without grounds (recorded before
 * that rule, by anyone) are never read.
 * Tables: campaigns_current, campaigns, campaign_config_associations, campaign_configs.
 */
export async function loadRatchetCampaign(
  db: PgPool,
  id: string,
): Promise<{ id: string; opportunity_id: string; start_timestamp: string; params: Record<string, unknown> } | null> {
  const { rows } = await db.query<{
    id: string;
    opportunity_id: string;
    start_timestamp: string;
    params: Record<string, unknown>;
    stored: Record<string, unknown> | null;
  }>(
    `SELECT c.id, c.opportunity_id, c.start_timestamp::text, c.params,
       coalesce(
         (SELECT cfg.config -> 'distributionMethodParameters' FROM campaign_config_associations a JOIN campaign_configs cfg ON cfg.hash = a.config_hash
          WHERE a.distribution_chain_id = c.distribution_chain_id AND a.campaign_id = lower(c.campaign_id) AND a.grounds IS NOT NULL
            AND cfg.config ? 'distributionMethodParameters'
          ORDER BY a.created_at DESC LIMIT 1),
         (SELECT cfg.config -> 'distributionMethodParameters' FROM campaign_configs cfg
          WHERE cfg.hash IN (lower(c.campaign_data), lower(o.campaign_data)) AND cfg.config ? 'distributionMethodParameters'
          ORDER BY cfg.hash = lower(c.campaign_data) DESC LIMIT 1)) AS stored
     FROM campaigns_current c JOIN campaigns o ON o.id = c.id WHERE c.id = $1`,
    [id],
  );
  const row = rows[0];
  if (!row) return null;
  const { stored, ...campaign } = row;
  return stored ? { ...campaign, params: { ...campaign.params, distributionMethodParameters: stored } } : campaign;
}

/** Whether the opportunity exists, and its native APR (0 before the metrics job ran). */
export async function loadOpportunityNativeApr(db: PgPool, id: string): Promise<number | null> {
  const { rows } = await db.query<{ native_apr: number | null }>(
    'SELECT m.native_apr FROM opportunities o LEFT JOIN opportunity_metrics m ON m.opportunity_id = o.id WHERE o.id = $1',
    [id],
  );
  return rows[0] ? (rows[0].native_apr ?? 0) : null;
}
