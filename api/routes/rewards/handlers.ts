import type { Context } from 'koa';
import { loadLiveRoot } from '../../../indexer/store/roots.js';
import { nowSeconds, type ApiDeps } from '../../deps.js';
import { listCampaignRewards } from './repo.js';
import type { ListRewardsQuery } from './schema.js';
import { serializeReward } from './serialize.js';

/**
 * GET /v4/rewards: recipients of a campaign's rewards in the chain's LIVE root (loadLiveRoot), by
 * descending amount. Empty when there is no live root or its tree is not verified (only verified
 * trees are served). Tables roots, distributor_events, reward_trees, reward_breakdowns, claims.
 */
export function listRewardsHandler(deps: ApiDeps) {
  return async (ctx: Context): Promise<void> => {
    const q = ctx.state.query as ListRewardsQuery;
    const live = await loadLiveRoot(deps.pg, q.chainId, nowSeconds(deps));
    if (!live || live.treeStatus !== 'verified') {
      ctx.body = [];
      return;
    }
    ctx.body = (await listCampaignRewards(deps.pg, { ...q, root: live.root })).map(serializeReward);
  };
}
