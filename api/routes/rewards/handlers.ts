import { loadLiveRoot } from '../../reads/roots.js';
import type { ApiDeps } from '../../deps.js';
import { listCampaignRewards } from './repo.js';
import {
  campaignVisibilityOf,
  hiddenOnChainCampaignIds,
  type CampaignVisibility,
} from '../../visibility/campaignVisibility.js';
import type { Handler } from '../../validate.js';
import type { ListRewardsQuery, listRewardsQuery } from './schema.js';
import { serializeReward } from './serialize.js';

/**
 * Recipients of a campaign's rewards in the chain's LIVE root (loadLiveRoot), by descending amount.
 * Empty when there is no live root or its tree is not verified (only verified trees are served).
 * Shared by GET /v4/rewards and GraphQL `rewards`. Tables roots, distributor_events, reward_trees,
 * reward_breakdowns, claims.
 */
export async function listRewards(deps: ApiDeps, q: ListRewardsQuery, visible: CampaignVisibility) {
  if ((await hiddenOnChainCampaignIds(deps.pg, visible, q.chainId, [q.campaignId])).size) return [];
  const live = await loadLiveRoot(deps.pg, q.chainId);
  if (live?.treeStatus !== 'verified') return [];
  return (await listCampaignRewards(deps.pg, { ...q, root: live.root })).map(serializeReward);
}

/** GET /v4/rewards: listRewards over the validated query. */
export function listRewardsHandler(deps: ApiDeps): Handler<{ query: typeof listRewardsQuery }> {
  return async (ctx) => {
    ctx.body = await listRewards(deps, ctx.state.query, await campaignVisibilityOf(deps, ctx.state, true));
  };
}
