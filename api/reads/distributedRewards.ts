import type { PgClient, PgPool } from '../../internal/pg.js';
import { loadLiveRoot } from './roots.js';

type Db = PgPool | PgClient;

/** What one campaign distributed in one token (and month, with a grain) over a window. */
export type DistributedRow = {
  chainId: number;
  campaignId: string;
  token: string;
  /** `YYYY-MM` (UTC) of the roots, with `grain: 'month'`; else null. */
  period: string | null;
  /** Token units (decimal string). */
  amount: string;
  /** USD at each root's time; the amounts of roots whose token had no price then count 0. */
  usd: number;
  /** Whether some of `amount` had no price at its root's time. */
  unpriced: boolean;
};

export type DistributedParams = {
  chainIds: readonly number[];
  /** Unix seconds, inclusive; null: since the first root. */
  from: number | null;
  /** Unix seconds, inclusive; null: up to the live root. */
  to: number | null;
  grain: 'month' | null;
};

/**
 * What the live roots of each chain distributed per campaign and token over a window: for each
 * root of the window up to the chain's live root (loadLiveRoot; not revoked, tree verified), its
 * campaigns' totals minus those of the root before it, both read from the per-tree totals
 * (sql/migrations/2026_11_30_07_reward_totals.sql: only the rows a tree changed, by
 * reward_campaign_totals_seq_idx), valued at the token's daily close of the root's UTC day (the
 * latest known on or before it; token_price_history). Summed per campaign, token (and month) in
 * PostgreSQL. Tables roots, reward_trees, reward_campaign_totals, tokens, token_price_history.
 */
export async function loadDistributedRewards(db: Db, p: DistributedParams): Promise<DistributedRow[]> {
  const perChain = await Promise.all(
    p.chainIds.map(async (chainId) => {
      const live = await loadLiveRoot(db, chainId);
      if (!live) return [];
      const { rows } = await db.query<{
        campaign_id: string;
        token: string;
        period: string | null;
        amount: string;
        usd: number;
        unpriced: boolean;
      }>(
        `WITH counted AS (
           SELECT r.timestamp, t.seq, lag(t.seq) OVER (ORDER BY r.block_number, r.log_index) AS prev_seq
           FROM roots r JOIN reward_trees t ON t.chain_id = r.chain_id AND t.root = r.root AND t.status = 'verified' AND t.seq IS NOT NULL
           WHERE r.chain_id = $1 AND NOT r.revoked AND (r.block_number, r.log_index) <= ($2::bigint, $3::int)
         ), windowed AS (
           SELECT * FROM counted WHERE ($4::bigint IS NULL OR timestamp >= $4) AND ($5::bigint IS NULL OR timestamp <= $5)
         ), changes AS (
           SELECT w.timestamp, n.campaign_id, n.token, n.amount - coalesce(o.amount, 0) AS delta
           FROM windowed w
           CROSS JOIN LATERAL (SELECT DISTINCT ON (c.campaign_id, c.token) c.campaign_id, c.token, c.amount FROM reward_campaign_totals c
             WHERE c.chain_id = $1 AND c.seq > coalesce(w.prev_seq, 0) AND c.seq <= w.seq ORDER BY c.campaign_id, c.token, c.seq DESC) n
           LEFT JOIN LATERAL (SELECT c.amount FROM reward_campaign_totals c WHERE c.chain_id = $1 AND c.campaign_id = n.campaign_id
             AND c.token = n.token AND c.seq <= w.prev_seq ORDER BY c.seq DESC LIMIT 1) o ON true
         ), priced AS (
           SELECT x.*, tk.decimals, (SELECT ph.close FROM token_price_history ph WHERE ph.token_id = tk.id
             AND ph.day <= (to_timestamp(x.timestamp) AT TIME ZONE 'UTC')::date ORDER BY ph.day DESC LIMIT 1) AS price
           FROM changes x LEFT JOIN tokens tk ON tk.chain_id = $1 AND lower(tk.address) = x.token
           WHERE x.delta <> 0
         )
         SELECT campaign_id, token,
           CASE WHEN $6::text = 'month' THEN to_char(to_timestamp(timestamp) AT TIME ZONE 'UTC', 'YYYY-MM') END AS period,
           sum(delta)::text AS amount,
           coalesce(sum(delta::float8 / 10 ^ coalesce(decimals, 18) * price), 0)::float8 AS usd,
           bool_or(price IS NULL) AS unpriced
         FROM priced GROUP BY 1, 2, 3`,
        [chainId, live.blockNumber, live.logIndex, p.from, p.to, p.grain],
      );
      return rows.map((r) => ({
        chainId,
        campaignId: r.campaign_id,
        token: r.token,
        period: r.period,
        amount: r.amount,
        usd: r.usd,
        unpriced: r.unpriced,
      }));
    }),
  );
  return perChain.flat();
}
