import { storeTreeEntries } from '../../indexer/store/stageRewardTree.js';
import { withTransaction, type PgPool } from '../../internal/pg.js';

/** One breakdown of a hand-made tree: recipient, campaign id, token, amount (leaves are their sums). */
export type RewardRow = readonly [recipient: string, campaignId: string, token: string, amount: number | bigint];

/**
 * Stores the amounts of a hand-made tree for `root` (its reward_trees row must exist; its status is
 * the caller's) as the roots job does (indexer/store/stageRewardTree.ts storeTreeEntries): for tests of
 * readers that need rewards without a published tree.
 */
export async function storeRewardRows(
  pg: PgPool,
  { chainId, root, rows }: { chainId: number; root: string; rows: readonly RewardRow[] },
): Promise<void> {
  const leaves = new Map<string, bigint>();
  for (const [recipient, , token, amount] of rows)
    leaves.set(`${recipient}|${token}`, (leaves.get(`${recipient}|${token}`) ?? 0n) + BigInt(amount));
  await withTransaction(pg, (tx) =>
    storeTreeEntries(tx, {
      chainId,
      root,
      leaves: [...leaves].map(([key, amount]) => {
        const [recipient, token] = key.split('|') as [string, string];
        return { recipient, token, amount: amount.toString() };
      }),
      breakdowns: rows.map(([recipient, campaignId, token, amount]) => ({
        recipient,
        token,
        campaignId,
        reason: '',
        amount: BigInt(amount).toString(),
      })),
    }),
  );
}
