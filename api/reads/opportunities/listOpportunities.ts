import type { OpportunityDocument } from '../../../domain/documents/opportunityDocument.js';
import { indexNames } from '../../../internal/es.js';
import { nowSeconds, type ApiDeps } from '../../deps.js';
import { searchPage } from '../../search/searchPage.js';
import { buildOpportunityListQuery } from './query.js';
import { loadCampaignsOf } from './readContext.js';
import { opportunityFilterContext } from './filterContext.js';
import type { PagedOppFilters } from './schema.js';
import { serializeOpportunity } from './serialize.js';

export const readIndex = (deps: ApiDeps) => indexNames(deps.config.esIndexPrefix, 'opportunities').read;

/**
 * One page of OPP-FILTERS matches (searchPage reaches past 10,000 hits), chains from PostgreSQL,
 * each with its campaigns when `campaigns`. Shared by GET /v4/opportunities and GraphQL `opportunities`.
 */
export async function listOpportunities(deps: ApiDeps, q: PagedOppFilters) {
  const now = nowSeconds(deps);
  const { chains, filter } = await opportunityFilterContext(deps, q.campaignId, now);
  const { query, sort } = buildOpportunityListQuery(q, now, filter);
  const docs = await searchPage<OpportunityDocument>({
    es: deps.es,
    index: readIndex(deps),
    query,
    sort,
    page: q.page,
    items: q.items,
    timeoutMs: deps.config.esRequestTimeoutMs,
  });
  const records = docs.map((d) => serializeOpportunity(d, chains, now));
  if (!q.campaigns) return records;
  const campaigns = await loadCampaignsOf(
    deps,
    records.map((r) => r.id),
    chains,
  );
  return records.map((r) => ({ ...r, campaigns: campaigns.get(r.id) ?? [] }));
}
