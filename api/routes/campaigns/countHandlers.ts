import type { ApiDeps } from '../../deps.js';
import type { Handler } from '../../validate.js';
import { searchCampaigns } from '../../visibility/campaignSearch.js';
import { privateVisibility } from '../../reads/campaign-access/visibility.js';
import { buildCountQuery, serializeCount } from './countQuery.js';
import { campaignListQuery } from './handlers.js';
import type { CountCampaignsQuery, countCampaignsQuery, CountGroup } from '../../reads/campaigns/schema.js';
import type { PrivateVisibility } from '../../reads/campaigns/query.js';

/**
 * The number of campaigns GET /v4/campaigns would list for `q` (every page), or those counts per
 * `group` key and/or start month: one size-0 search with aggregations over the read alias, private
 * campaigns only as `visible` allows (searchCampaigns). Shared with GraphQL `campaignCounts`.
 */
export async function countCampaigns(
  deps: ApiDeps,
  q: CountCampaignsQuery,
  visible: PrivateVisibility,
  group?: CountGroup,
) {
  const { grain, ...list } = q;
  const { query } = await campaignListQuery(deps, list, visible);
  const res = await searchCampaigns<never>(deps, visible, buildCountQuery(query, group, grain));
  return serializeCount(res, group, grain);
}

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
