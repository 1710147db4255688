import { loadLiveRoot } from '../../../indexer/store/roots.js';
import { claimedTotals } from '../../../indexer/store/claims.js';
import { loadRewards, type RewardRecord } from '../../../indexer/store/rewardTrees.js';
import type { ApiDeps } from '../../deps.js';
import type { ProofCache } from './proofs.js';
import { loadCampaignInfo, loadTokenInfo, type CampaignInfo, type TokenInfo } from './repo.js';

/** Everything needed to serialize a user's rewards on one chain. */
export type UserChainRewards = {
  chainId: number;
  /** The chain's live root, or null when there is none or its tree is not verified. */
  root: string | null;
  rewards: { reward: RewardRecord; claimedTotal: bigint; proofs: string[]; token: TokenInfo | undefined }[];
  campaigns: Map<string, CampaignInfo>;
};

export type LoadUserRewardsParams = { deps: ApiDeps; proofs: ProofCache; chainId: number; address: string };

/**
 * A user's leaves in the LIVE root of a chain (loadLiveRoot, at the chain's indexed block time; verified trees only), with proofs
 * recomputed over that tree (cached per root), claimed totals (claimedTotals), token metadata and
 * the campaigns of the breakdowns. Tables roots, reward_trees, rewards, reward_breakdowns, claims,
 * tokens, campaigns.
 */
export async function loadUserRewards({ deps, proofs, chainId, address }: LoadUserRewardsParams): Promise<UserChainRewards> {
  const live = await loadLiveRoot(deps.pg, chainId);
  if (!live || live.treeStatus !== 'verified') return { chainId, root: null, rewards: [], campaigns: new Map() };
  const rewards = await loadRewards(deps.pg, { chainId, root: live.root, recipient: address });
  if (!rewards.length) return { chainId, root: live.root, rewards: [], campaigns: new Map() };
  const [totals, tree, tokens, campaigns] = await Promise.all([
    claimedTotals(deps.pg, { chainId, recipient: address }),
    proofs.get({ chainId, root: live.root }),
    loadTokenInfo(deps.pg, chainId, rewards.map((r) => r.token)),
    loadCampaignInfo(deps.pg, chainId, rewards.flatMap((r) => r.breakdowns.map((b) => b.campaignId))),
  ]);
  const claimed = new Map(totals.map((t) => [t.token, BigInt(t.claimed)]));
  return {
    chainId,
    root: live.root,
    rewards: rewards.map((reward) => ({
      reward, claimedTotal: claimed.get(reward.token) ?? 0n, proofs: tree.proofOf(reward.recipient, reward.token) ?? [], token: tokens.get(reward.token),
    })),
    campaigns,
  };
}
