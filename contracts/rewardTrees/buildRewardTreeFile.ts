import type { Address } from 'viem';
import { buildRewardTree } from '../../domain/rewardTree.js';
import type { RewardTreeFile } from '../../indexer/decode/parseRewardTree.js';

export type BuildRewardTreeFileParams = {
  chainId: number;
  /** One entry per (recipient, token); its amount is the sum of its breakdowns. */
  rewards: {
    recipient: Address;
    token: Address;
    breakdowns: { campaignId: string; reason: string; amount: bigint }[];
  }[];
};

/**
 * Pure: a publishable tree document from per-campaign amounts (amounts summed per entry, root
 * computed with buildRewardTree). For the demo seeder and tests.
 */
export function buildRewardTreeFile({ chainId, rewards }: BuildRewardTreeFileParams): RewardTreeFile {
  const entries = rewards.map((r) => ({
    recipient: r.recipient.toLowerCase() as Address,
    token: r.token.toLowerCase() as Address,
    amount: r.breakdowns.reduce((sum, b) => sum + b.amount, 0n),
    breakdowns: r.breakdowns.map((b) => ({ campaignId: b.campaignId, reason: b.reason, amount: b.amount.toString() })),
  }));
  const { root } = buildRewardTree(entries.map((e) => ({ user: e.recipient, token: e.token, amount: e.amount })));
  return { root, chainId, rewards: entries.map((e) => ({ ...e, amount: e.amount.toString() })) };
}
