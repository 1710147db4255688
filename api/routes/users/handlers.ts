import { listUserRewards } from '../../reads/users/listUserRewards.js';
import type { ApiDeps } from '../../deps.js';
import type { ProofSource } from '../../reads/rewardProofs.js';
import { campaignVisibilityOf } from '../../visibility/campaignVisibility.js';
import type { Handler } from '../../validate.js';
import type { userParams, userRewardsQuery } from '../../reads/users/schema.js';

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
