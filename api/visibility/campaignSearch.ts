import type { estypes } from '@elastic/elasticsearch';
import { indexNames } from '../../internal/es.js';
import type { ApiDeps } from '../deps.js';
import { CAMPAIGN_VISIBILITY_APPLIED } from '../search/campaignIndexGuard.js';
import { searchOnce } from '../search/searchOnce.js';
import { searchPage, type SearchPageParams } from '../search/searchPage.js';
import { hiddenCampaignDocuments, hiddenCampaignIds, type CampaignVisibility } from './campaignVisibility.js';

type Query = estypes.QueryDslQueryContainer;
type SearchDeps = Pick<ApiDeps, 'es' | 'config' | 'pg'>;

/**
 * Pure: `query` restricted to the campaign documents `visible` allows (README "Campaign
 * visibility"); the caller's own clauses stay as they are, inside a filter.
 */
export function visibleCampaignsQuery(query: Query | undefined, visible: CampaignVisibility): Query {
  const hidden = hiddenCampaignDocuments(visible);
  if (!hidden) return query ?? { match_all: {} };
  return { bool: { filter: query ? [query] : [], must_not: [hidden] } };
}

/**
 * The one way to search campaign documents (`<prefix>-campaigns` read alias): one search whose query
 * is restricted to what `visible` allows. Aggregations, sizes and sorts of `body` apply to visible
 * documents only, so counts and figures never include a hidden campaign. The hits are then checked
 * against PostgreSQL (the truth): a document whose privacy flag a concurrent projection has not
 * caught up with yet is dropped, so a privacy change holds on every read as soon as it committed.
 */
export async function searchCampaigns<T>(
  deps: SearchDeps,
  visible: CampaignVisibility,
  body: Record<string, unknown> & { query?: Query },
): Promise<estypes.SearchResponse<T>> {
  const index = indexNames(deps.config.esIndexPrefix, 'campaigns').read;
  const res = await searchOnce<T>(
    deps,
    index,
    { ...body, query: visibleCampaignsQuery(body.query, visible) },
    CAMPAIGN_VISIBILITY_APPLIED,
  );
  const hidden = await hiddenCampaignIds(
    deps.pg,
    visible,
    res.hits.hits.map((h) => h._id),
  );
  return hidden.size
    ? { ...res, hits: { ...res.hits, hits: res.hits.hits.filter((h) => !hidden.has(h._id ?? '')) } }
    : res;
}

/** One page of visible campaign documents, however deep (searchPage), restricted as searchCampaigns is. */
export async function pageCampaigns<T>(
  deps: SearchDeps,
  visible: CampaignVisibility,
  params: Omit<SearchPageParams, 'es' | 'index' | 'timeoutMs' | 'applied'>,
): Promise<T[]> {
  const docs = await searchPage<T & { id: string }>({
    ...params,
    // The hits are checked by id (hiddenCampaignIds): a source selection keeps it.
    source: params.source && !params.source.includes('id') ? [...params.source, 'id'] : params.source,
    es: deps.es,
    index: indexNames(deps.config.esIndexPrefix, 'campaigns').read,
    timeoutMs: deps.config.esRequestTimeoutMs,
    query: visibleCampaignsQuery(params.query, visible),
    applied: CAMPAIGN_VISIBILITY_APPLIED,
  });
  const hidden = await hiddenCampaignIds(
    deps.pg,
    visible,
    docs.map((d) => d.id),
  );
  return hidden.size ? docs.filter((d) => !hidden.has(d.id)) : docs;
}
