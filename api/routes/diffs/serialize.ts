import type { breakdownsPage } from './breakdownsPage.js';
import type { leavesPage } from './leavesPage.js';
import type { BreakdownsQuery, LeavesQuery } from './schema.js';

type LeavesPage = Awaited<ReturnType<typeof leavesPage>>;
type BreakdownsPage = Awaited<ReturnType<typeof breakdownsPage>>;

/** GET /v4/diffs/leaves answer: the root, the page of leaves and the summary over every leaf. */
export function serializeLeaves(root: string, q: LeavesQuery, { rows, totals: s }: LeavesPage) {
  return {
    root,
    count: s.total_count,
    leaves: rows.map((r) => ({
      distributionChainId: q.chainId,
      tokenAddress: r.token,
      recipient: r.recipient,
      amount: r.amount,
      claimed: r.claimed,
    })),
    summary: {
      total: s.total_count,
      totalAmount: s.total_amount,
      totalClaimed: s.total_claimed,
      positiveAmount: s.total_positive,
      negativeAmount: s.total_negative,
    },
  };
}

/** GET /v4/diffs/leaf-breakdowns answer: the page of breakdowns, the summary over every one, and their opportunities by id. */
export function serializeBreakdowns(
  live: { root: string; timestamp: number },
  q: BreakdownsQuery,
  { rows, totals: s }: BreakdownsPage,
) {
  const opportunities: Record<string, { name: string | null; path: string }> = {};
  for (const r of rows)
    if (r.opportunity_id)
      opportunities[r.opportunity_id] = { name: r.opportunity_name, path: `/v4/opportunities/${r.opportunity_id}` };
  return {
    root: live.root,
    count: s.total_count,
    breakdowns: rows.map((r) => ({
      tokenAddress: q.tokenAddress.toLowerCase(),
      recipient: r.recipient,
      campaignId: r.campaign_id,
      reason: r.reason,
      amount: r.amount,
      claimed: r.claimed,
      subCampaignId: null,
      lastProcessedTimestamp: live.timestamp,
      distributionChainId: q.chainId,
      opportunityId: r.opportunity_id,
    })),
    summary: {
      total: s.total_count,
      totalAmount: s.total_amount,
      totalClaimed: s.total_claimed,
      positiveAmount: (BigInt(s.total_amount) - BigInt(s.total_claimed)).toString(),
      negativeAmount: '0',
    },
    opportunities,
  };
}
