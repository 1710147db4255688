import type { RevenueRow } from './repo.js';

/**
 * Pure: revenue groups → the public body: the totals (USD over priced fees; campaigns whose fee is read,
 * not read yet, or unpriced) and the groups by month, chain and token, amounts as decimal strings.
 */
export function serializeRevenues(rows: RevenueRow[]) {
  const total = (f: (r: RevenueRow) => number) => rows.reduce((sum, r) => sum + f(r), 0);
  return {
    totalUsd: total((r) => r.amount_usd ?? 0),
    campaigns: total((r) => r.campaigns),
    pendingCampaigns: total((r) => r.pending),
    unpricedCampaigns: total((r) => r.unpriced),
    revenues: rows.map((r) => ({
      month: r.month,
      chainId: r.chain_id,
      tokenAddress: r.token,
      symbol: r.symbol,
      decimals: r.decimals,
      amount: r.amount,
      amountUsd: r.amount_usd,
      campaigns: r.campaigns,
      pendingCampaigns: r.pending,
      unpricedCampaigns: r.unpriced,
    })),
  };
}
