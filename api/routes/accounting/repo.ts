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

/** Pure: the WHERE clause and parameters of a filter over campaign_fee_months `m` (parameters from $1). */
export function revenueWhere(f: RevenueFilter): { where: string; params: unknown[] } {
  const clauses = ['m.campaigns > 0'];
  const params: unknown[] = [];
  const add = (sql: (n: number) => string, ...values: unknown[]) => {
    params.push(...values);
    clauses.push(sql(params.length - values.length + 1));
  };
  if (f.chainId !== undefined) add((n) => `m.chain_id = $${n}`, f.chainId);
  if (f.tokenAddress !== undefined) add((n) => `m.token = $${n}`, f.tokenAddress.toLowerCase());
  // A campaign's group is its UTC month of creation: the month asked for is one group.
  if (f.year !== undefined && f.month !== undefined)
    add((n) => `m.month = make_date($${n}::int, $${n + 1}::int, 1)`, f.year, f.month);
  return { where: `WHERE ${clauses.join(' AND ')}`, params };
}

/**
 * Creation fees (campaigns.fee_amount) summed per UTC month of creation, distribution chain and reward token,
 * in base units and in USD at the price of the creation day (campaigns.fee_usd, kept by the triggers of
 * sql/migrations/2026_12_01_33_campaign_fee_usd.sql: the token's last daily close on or before that day),
 * with the campaigns counted, those whose fee is not read yet (`pending`) and those with a fee but no price
 * (`unpriced`). Read from the groups the campaigns' triggers keep (campaign_fee_months,
 * sql/migrations/2026_12_03_03_fee_months_token_lookup.sql), one row per group: what grouping the campaigns
 * gives (test/integration/sql/feeMonthRollup.test.ts recomputes it). Tables campaign_fee_months, tokens.
 */
export async function loadRevenues(pg: PgPool, filter: RevenueFilter): Promise<RevenueRow[]> {
  const { where, params } = revenueWhere(filter);
  const { rows } = await pg.query<RevenueRow>(
    `SELECT g.month, g.chain_id, g.token, t.symbol, t.decimals, g.amount, g.amount_usd, g.campaigns, g.pending, g.unpriced
     FROM (
       SELECT to_char(m.month, 'YYYY-MM') AS month, m.chain_id, m.token, m.amount::text AS amount,
         CASE WHEN m.priced > 0 THEN m.amount_usd::float8 END AS amount_usd,
         m.fee_read AS campaigns, m.campaigns - m.fee_read AS pending, m.unpriced
       FROM campaign_fee_months m
       ${where}) g
     LEFT JOIN tokens t ON t.chain_id = g.chain_id AND t.address = g.token
     ORDER BY 1, 2, 3`,
    params,
  );
  return rows;
}
