import type { breakdownDiffPage } from './repo.js';

type Root = { root: string; timestamp: number };

/** The answer of both routes: the two roots, the count of every breakdown and the page, each with its difference. */
export function serializeHistorical(
  startRoot: Root | null,
  endRoot: Root,
  { rows, totals }: Awaited<ReturnType<typeof breakdownDiffPage>>,
) {
  return {
    startRoot,
    endRoot,
    count: totals.total_count,
    breakdowns: rows.map((r) => ({
      campaignId: r.campaign_id,
      recipient: r.recipient,
      reason: r.reason,
      rewardToken: r.token,
      startAmount: r.start_amount,
      endAmount: r.end_amount,
      diff: (BigInt(r.end_amount) - BigInt(r.start_amount)).toString(),
    })),
  };
}
