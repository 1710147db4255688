import { listRewardsPage } from '../../reads/rewards/listRewards.js';
import type { ApiDeps } from '../../deps.js';
import { campaignVisibilityOf } from '../../visibility/campaignVisibility.js';
import type { Handler } from '../../validate.js';
import type { listRewardsQuery } from '../../reads/rewards/schema.js';

/** GET /v4/rewards: listRewards over the validated query. */
export function listRewardsHandler(deps: ApiDeps): Handler<{ query: typeof listRewardsQuery }> {
  return async (ctx) => {
    const { rows, path } = await listRewardsPage(
      deps,
      ctx.state.query,
      await campaignVisibilityOf(deps, ctx.state, true),
    );
    // Which path read the page: operators and tests see it without a debug switch.
    if (path) ctx.set('server-timing', `rewards;desc=${path}`);
    ctx.body = rows;
  };
}
