import { currentChainContext } from '../../chainRecords.js';
import { nowSeconds, type ApiDeps } from '../../deps.js';
import { resolveChainIds } from '../../reads/users/params.js';
import type { ProofSource } from '../../reads/rewardProofs.js';
import { loadUserRewards } from './loadUserRewards.js';
import { campaignVisibilityOf, type CampaignVisibility } from '../../visibility/campaignVisibility.js';
import type { Handler } from '../../validate.js';
import type { userParams, UserRewardsQuery, userRewardsQuery } from '../../reads/users/schema.js';
import { serializeUserReward } from '../../reads/users/serialize.js';

/**
 * GET /v4/users/{address}/rewards: per requested chain, the user's rewards in the chain's LIVE root
 * (verified trees only) with the proofs `claim` takes, claimed and pending amounts and breakdowns.
 * `claimableOnly` keeps rewards with pending > 0; `type` keeps one token type; test tokens only with
 * `test`. `reloadChainId` is accepted for compatibility (nothing is cached beyond immutable proofs).
 */
export function userRewardsHandler(
  deps: ApiDeps,
  proofs: ProofSource,
): Handler<{ params: typeof userParams; query: typeof userRewardsQuery }> {
  return async (ctx) => {
    const visible = await campaignVisibilityOf(deps, ctx.state, true);
    ctx.body = await listUserRewards(deps, proofs, ctx.state.params.address, ctx.state.query, visible);
  };
}

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
