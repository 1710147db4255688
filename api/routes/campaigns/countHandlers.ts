import type { ApiDeps } from '../../deps.js';
import type { Handler } from '../../validate.js';
import { privateVisibility } from '../../reads/campaign-access/visibility.js';
import { countCampaigns } from '../../reads/campaigns/count.js';
import type { countCampaignsQuery, CountGroup } from '../../reads/campaigns/schema.js';

/** GET /v4/campaigns/count and /count/by-{group}: countCampaigns over the validated query. */
export function countCampaignsHandler(
  deps: ApiDeps,
  group?: CountGroup,
): Handler<{ query: typeof countCampaignsQuery }> {
  return async (ctx) => {
    const q = ctx.state.query;
    if (q.showPrivate) ctx.state.private = true;
    ctx.body = await countCampaigns(deps, q, await privateVisibility(deps, ctx.state, q.showPrivate), group);
  };
}
