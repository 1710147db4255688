import type { PgPool } from '../../../internal/pg.js';

/** Which campaigns' fees to sum: all, or those of a chain, a reward token, a UTC month of creation. */
export type RevenueFilter = { chainId?: number; tokenAddress?: string; year?: number; month?: number };

/** One (month, chain, reward token) group of creation fees. */
export type RevenueRow = {
  month: string;
  chain_id: number;
  token: string;
  symbol: string | null;
  decimals: number | null;
  amount: string;
  amount_usd: number | null;
  campaigns: number;
  pending: number;
  unpriced: number;
};

/** Pure: the WHERE clause and parameters of a filter (parameters from $1). */
export function revenueWhere(f: RevenueFilter): { where: string; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  const add = (sql: (n: number) => string, value: unknown) => {
    params.push(value);
    clauses.push(sql(params.length));
  };
  if (f.chainId !== undefined) add((n) => `c.distribution_chain_id = $${n}`, f.chainId);
  if (f.tokenAddress !== undefined) add((n) => `c.reward_token = $${n}`, f.tokenAddress.toLowerCase());
  if (f.year !== undefined && f.month !== undefined) {
    add((n) => `c.created_at >= make_timestamptz($${n}, $${n + 1}, 1, 0, 0, 0, 'UTC')`, f.year);
    params.push(f.month);
    clauses[clauses.length - 1] +=
      ` AND c.created_at < make_timestamptz($${params.length - 1}, $${params.length}, 1, 0, 0, 0, 'UTC') + interval '1 month'`;
  }
  return { where: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

/**
 * Creation fees (campaigns.fee_amount) summed per UTC month of creation, distribution chain and reward token,
 * in base units and in USD at the price of the creation day (campaigns.fee_usd, kept by the triggers of
 * sql/migrations/2026_12_01_33_campaign_fee_usd.sql: the token's last daily close on or before that day),
 * with the campaigns counted, those whose fee is not read yet (`pending`) and those with a fee but no price
 * (`unpriced`). One indexed GROUP BY (campaigns_fee_revenue_idx), no price lookup per campaign. Tables campaigns, tokens.
 */
export async function loadRevenues(pg: PgPool, filter: RevenueFilter): Promise<RevenueRow[]> {
  const { where, params } = revenueWhere(filter);
  const { rows } = await pg.query<RevenueRow>(
    `SELECT g.month, g.chain_id, g.token, t.symbol, t.decimals, g.amount, g.amount_usd, g.campaigns, g.pending, g.unpriced
     FROM (
       SELECT to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM') AS month, c.distribution_chain_id AS chain_id,
         c.reward_token AS token,
         COALESCE(sum(c.fee_amount), 0)::text AS amount,
         sum(c.fee_usd)::float8 AS amount_usd,
         count(*) FILTER (WHERE c.fee_amount IS NOT NULL)::int AS campaigns,
         count(*) FILTER (WHERE c.fee_amount IS NULL)::int AS pending,
         count(*) FILTER (WHERE c.fee_amount > 0 AND c.fee_usd IS NULL)::int AS unpriced
       FROM campaigns c
       ${where}
       GROUP BY 1, 2, 3) g
     LEFT JOIN tokens t ON t.chain_id = g.chain_id AND t.address = g.token
     ORDER BY 1, 2, 3`,
    params,
  );
  return rows;
}
