import { currentChainContext } from '../../chainRecords.js';
import { nowSeconds, type ApiDeps } from '../../deps.js';
import { resolveChainIds } from './params.js';
import type { ProofSource } from '../rewardProofs.js';
import { loadUserRewards } from './loadUserRewards.js';
import type { CampaignVisibility } from '../../visibility/campaignVisibility.js';
import type { UserRewardsQuery } from './schema.js';
import { serializeUserReward } from './serialize.js';

/** The rewards of `address` per requested chain (see userRewardsHandler); shared with GraphQL `user.rewards`. */
export async function listUserRewards(
  deps: ApiDeps,
  proofs: ProofSource,
  address: string,
  q: UserRewardsQuery,
  visible: CampaignVisibility,
) {
  const chainIds = resolveChainIds(deps, 'chainId', q.chainId);
  const now = nowSeconds(deps);
  const { chains } = await currentChainContext(deps, now);
  return Promise.all(
    chainIds.map(async (chainId) => {
      const data = await loadUserRewards({ deps, proofs, chainId, address: address.toLowerCase(), visible });
      const rewards = data.rewards
        .filter((r) => (q.test || !r.token?.isTest) && (!q.type || (r.token?.type ?? 'TOKEN') === q.type))
        .map((r) =>
          serializeUserReward({
            chainId,
            root: data.root!,
            ...r,
            campaigns: data.campaigns,
            now,
            breakdownPage: q.breakdownPage,
          }),
        )
        .filter((r) => !q.claimableOnly || BigInt(r.pending) > 0n);
      return { chain: chains.get(chainId) ?? null, rewards };
    }),
  );
}
