import { tokenDbId } from '../../../domain/ids.js';
import type { PgPool } from '../../../internal/pg.js';
import { publicCampaignSql } from '../../visibility/campaignVisibility.js';

/** LIVE campaigns whose figures leave their reward token out for want of a fresh price, per token. */
export type UnpricedFacts = {
  campaigns: number;
  tokens: { id: string; chainId: number; address: string; symbol: string | null; campaigns: number }[];
};

/** Opportunities whose TVL is unknown, in total and per reason (TvlStatus other than `ok`, #42). */
export type UnknownTvlFacts = { opportunities: number; byStatus: { status: string; opportunities: number }[] };

export type PipelineFacts = {
  prices: {
    tracked: number;
    stale: number;
    maxAgeSeconds: number;
    oldestAgeSeconds: number | null;
    unpricedLiveCampaigns: UnpricedFacts;
  };
  trees: { chainId: number; pending: number; mismatch: number; unavailable: number }[];
  /** Opportunities with a LIVE public campaign whose TVL is unknown (tvl_status other than ok), per status. */
  unknownTvl: UnknownTvlFacts;
  /** Seconds between now and the timestamp of each cursor's block (job × chain), when the block is indexed. */
  cursorAges: Map<string, number>;
};

/**
 * Pipeline facts of the health view beyond jobs: prices older than PRICE_MAX_AGE_SECONDS, the LIVE
 * public campaigns the last metrics run could not value for want of a fresh reward-token price (that
 * run's `missingPrices` count also counts private ones: /v4/health is public, so they are left out
 * here, as from every public count), the opportunities with a LIVE public campaign whose TVL the last
 * run could not know, per reason (opportunity_metrics.tvl_status; live_campaigns counts public
 * campaigns only), reward trees not verified per chain, and how old (in chain time) each job's cursor
 * block is.
 * Tables: token_prices, campaign_metrics, opportunity_metrics, campaigns_current, tokens, reward_trees, cursors, blocks.
 */
export async function loadPipelineFacts(pg: PgPool, maxAgeSeconds: number): Promise<PipelineFacts> {
  const [prices, unpriced, unknownTvl, trees, ages] = await Promise.all([
    pg.query<{ tracked: number; stale: number; oldest: number | null }>(
      `SELECT count(*)::int AS tracked, count(*) FILTER (WHERE updated_at < now() - make_interval(secs => $1))::int AS stale,
         extract(epoch FROM now() - min(updated_at))::float8 AS oldest FROM token_prices`,
      [maxAgeSeconds],
    ),
    pg.query<{ chain_id: number; reward_token: string; id: string | null; symbol: string | null; campaigns: number }>(
      `SELECT c.distribution_chain_id AS chain_id, c.reward_token, t.id, t.symbol, count(*)::int AS campaigns
       FROM campaign_metrics m JOIN campaigns_current c ON c.id = m.campaign_db_id
       LEFT JOIN tokens t ON t.chain_id = c.distribution_chain_id AND t.address = c.reward_token
       WHERE m.status = 'LIVE' AND m.daily_rewards_usd IS NULL AND ${publicCampaignSql('c')}
       GROUP BY 1, 2, 3, 4 ORDER BY campaigns DESC, 1, 2`,
    ),
    pg.query<{ status: string; opportunities: number }>(
      `SELECT tvl_status AS status, count(*)::int AS opportunities FROM opportunity_metrics
       WHERE live_campaigns > 0 AND tvl_status <> 'ok' GROUP BY 1 ORDER BY 2 DESC, 1`,
    ),
    pg.query<{ chain_id: number; pending: number; mismatch: number; unavailable: number }>(
      `SELECT chain_id, count(*) FILTER (WHERE status = 'pending')::int AS pending, count(*) FILTER (WHERE status = 'mismatch')::int AS mismatch,
         count(*) FILTER (WHERE status = 'unavailable')::int AS unavailable
       FROM reward_trees WHERE status <> 'verified' GROUP BY chain_id ORDER BY chain_id`,
    ),
    pg.query<{ job: string; chain_id: number; age: number }>(
      `SELECT c.job, c.chain_id, (extract(epoch FROM now()) - b.timestamp)::float8 AS age
       FROM cursors c JOIN blocks b ON b.chain_id = c.chain_id AND b.number = c.block_number`,
    ),
  ]);
  const p = prices.rows[0]!;
  return {
    prices: {
      tracked: p.tracked,
      stale: p.stale,
      maxAgeSeconds,
      oldestAgeSeconds: p.oldest === null ? null : Math.round(p.oldest),
      unpricedLiveCampaigns: {
        campaigns: unpriced.rows.reduce((n, r) => n + r.campaigns, 0),
        tokens: unpriced.rows.map((r) => ({
          id: r.id ?? tokenDbId(r.chain_id, r.reward_token),
          chainId: r.chain_id,
          address: r.reward_token,
          symbol: r.symbol,
          campaigns: r.campaigns,
        })),
      },
    },
    unknownTvl: {
      opportunities: unknownTvl.rows.reduce((n, r) => n + r.opportunities, 0),
      byStatus: unknownTvl.rows,
    },
    trees: trees.rows.map((r) => ({
      chainId: r.chain_id,
      pending: r.pending,
      mismatch: r.mismatch,
      unavailable: r.unavailable,
    })),
    cursorAges: new Map(ages.rows.map((r) => [`${r.job}:${r.chain_id}`, Math.max(0, Math.round(r.age))])),
  };
}
