import type { ApiDeps } from '../../deps.js';
import { searchCampaigns } from '../../visibility/campaignSearch.js';
import { buildCountQuery, serializeCount } from './countQuery.js';
import { campaignListQuery } from './list.js';
import type { PrivateVisibility } from './query.js';
import type { CountCampaignsQuery, CountGroup } from './schema.js';

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
