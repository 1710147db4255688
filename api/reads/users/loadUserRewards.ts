import type { Address } from 'viem';
import { rewardTreeKey } from '../../../domain/rewardTree.js';
import { loadServedRoot } from '../servedRoot.js';
import { claimedTotals } from '../claims.js';
import { loadRewards, type RewardRecord } from '../rewards.js';
import type { ApiDeps } from '../../deps.js';
import { hiddenOnChainCampaignIds, type CampaignVisibility } from '../../visibility/campaignVisibility.js';
import type { ProofSource } from '../rewardProofs.js';
import { loadCampaignInfo, loadTokenInfo, type CampaignInfo, type TokenInfo } from './repo.js';

/** Everything needed to serialize a user's rewards on one chain. */
export type UserChainRewards = {
  chainId: number;
  /** The chain's live root, or null when there is none (or it is the zero root). */
  root: string | null;
  rewards: { reward: RewardRecord; claimedTotal: bigint; proofs: string[]; token: TokenInfo | undefined }[];
  campaigns: Map<string, CampaignInfo>;
};

export type LoadUserRewardsParams = {
  deps: ApiDeps;
  proofs: ProofSource;
  chainId: number;
  address: string;
  visible: CampaignVisibility;
};

/**
 * A user's leaves in the LIVE root of a chain (loadServedRoot, at the chain's indexed block time), with proofs
 * read from the tree's stored proof material (api/reads/rewardProofs.ts), claimed totals (claimedTotals), token metadata and
 * the campaigns of the breakdowns. Tables roots, reward_trees, rewards, reward_breakdowns, claims,
 * tokens, campaigns.
 * @throws RewardTreeUnavailableError while the live root's tree is not stored (a 503, never an empty list).
 */
export async function loadUserRewards({
  deps,
  proofs,
  chainId,
  address,
  visible,
}: LoadUserRewardsParams): Promise<UserChainRewards> {
  const live = await loadServedRoot(deps.pg, chainId);
  if (!live) return { chainId, root: null, rewards: [], campaigns: new Map() };
  const all = await loadRewards(deps.pg, { chainId, root: live.root, recipient: address });
  // Breakdowns of campaigns hidden from the caller are left out (the leaf's total stays: it is what the proof claims).
  const hidden = await hiddenOnChainCampaignIds(
    deps.pg,
    visible,
    chainId,
    all.flatMap((r) => r.breakdowns.map((b) => b.campaignId)),
  );
  const rewards = hidden.size
    ? all.map((r) => ({ ...r, breakdowns: r.breakdowns.filter((b) => !hidden.has(b.campaignId.toLowerCase())) }))
    : all;
  if (!rewards.length) return { chainId, root: live.root, rewards: [], campaigns: new Map() };
  const [totals, proved, tokens, campaigns] = await Promise.all([
    claimedTotals(deps.pg, { chainId, recipient: address }),
    proofs.proofsOf({ chainId, root: live.root, leaves: rewards }),
    loadTokenInfo(
      deps.pg,
      chainId,
      rewards.map((r) => r.token),
    ),
    loadCampaignInfo(
      deps.pg,
      chainId,
      rewards.flatMap((r) => r.breakdowns.map((b) => b.campaignId)),
    ),
  ]);
  const claimed = new Map(totals.map((t) => [t.token, BigInt(t.claimed)]));
  return {
    chainId,
    root: live.root,
    rewards: rewards.map((reward) => ({
      reward,
      claimedTotal: claimed.get(reward.token) ?? 0n,
      proofs: proved.get(rewardTreeKey(reward.recipient as Address, reward.token as Address)) ?? [],
      token: tokens.get(reward.token),
    })),
    campaigns,
  };
}
