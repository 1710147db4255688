import { createHash } from 'node:crypto';

/** An entry of a tree as staging needs it (a RewardTreeEntry, or a hand-made one). */
export type LeafEntry = {
  recipient: string;
  token: string;
  amount: string;
  breakdowns: readonly { campaignId: string; reason: string; amount: string }[];
};

/** What is staged of an entry besides its key and amount. */
export type StagedLeaf = {
  /** The breakdowns as JSON `[[campaignId, reason, amount], …]`, sorted by campaign id then reason. */
  breakdowns: string;
  /** sha256 of the amount and `breakdowns`, hex: equal digests mean an unchanged leaf. */
  digest: string;
};

type Row = [campaignId: string, reason: string, amount: string];

const byCampaignThenReason = (a: Row, b: Row) =>
  a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0;

/**
 * Pure: an entry's canonical breakdowns and digest. The order of breakdowns in a document does not
 * change the digest, so a leaf whose amount and breakdowns are the same in the next tree is not
 * stored again (indexer/store/rewardTrees.ts storeStagedTree).
 */
export function stagedLeaf(entry: LeafEntry): StagedLeaf {
  const rows = entry.breakdowns.map((b): Row => [b.campaignId, b.reason, b.amount]);
  if (rows.length > 1) rows.sort(byCampaignThenReason);
  const breakdowns = JSON.stringify(rows);
  const digest = createHash('sha256').update(entry.amount).update('\n').update(breakdowns).digest('hex');
  return { breakdowns, digest };
}
