import { tokenDbId } from '../../../domain/ids.js';
import type { PgPool } from '../../../internal/pg.js';
import { publicCampaignSql } from '../../visibility/campaignVisibility.js';

/** LIVE campaigns whose figures leave their reward token out for want of a fresh price, per token. */
export type UnpricedFacts = { campaigns: number; tokens: { id: string; symbol: string | null; campaigns: number }[] };

export type PipelineFacts = {
  prices: {
    tracked: number;
    stale: number;
    maxAgeSeconds: number;
    oldestAgeSeconds: number | null;
    unpricedLiveCampaigns: UnpricedFacts;
  };
  trees: { chainId: number; pending: number; mismatch: number; unavailable: number }[];
  /** Seconds between now and the timestamp of each cursor's block (job × chain), when the block is indexed. */
  cursorAges: Map<string, number>;
};

/**
 * Pipeline facts of the health view beyond jobs: prices older than PRICE_MAX_AGE_SECONDS, the LIVE
 * public campaigns the last metrics run could not value for want of a fresh reward-token price (that
 * run's `missingPrices` count also counts private ones: /v4/health is public, so they are left out
 * here, as from every public count), reward trees not verified per chain, and how old
 * (in chain time) each job's cursor block is.
 * Tables: token_prices, campaign_metrics, campaigns_current, tokens, reward_trees, cursors, blocks.
 */
export async function loadPipelineFacts(pg: PgPool, maxAgeSeconds: number): Promise<PipelineFacts> {
  const [prices, unpriced, trees, ages] = await Promise.all([
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
          symbol: r.symbol,
          campaigns: r.campaigns,
        })),
      },
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
