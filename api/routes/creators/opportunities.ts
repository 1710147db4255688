import type { OpportunityDocument } from '../../../domain/documents/opportunityDocument.js';
import { creatorOr404 } from './handlers.js';
import { campaignVisibilityOf } from '../../visibility/campaignVisibility.js';
import { indexNames } from '../../../internal/es.js';
import { nowSeconds, type ApiDeps } from '../../deps.js';
import { ServiceUnavailableError } from '../../errors.js';
import { searchPage } from '../../search/searchPage.js';
import { buildCountQuery, buildOpportunityListQuery } from '../../reads/opportunities/query.js';
import { opportunityFilterContext } from '../../reads/opportunities/filterContext.js';
import { serializeOpportunity } from '../../reads/opportunities/serialize.js';
import type { Handler } from '../../validate.js';
import type { creatorOppCountQuery, creatorOppFiltersQuery } from '../../reads/opportunities/schema.js';
import type { creatorParams } from './schema.js';
import { loadCreatorCampaignCounts } from './campaignCounts.js';

/** Pure: a filter query narrowed to opportunities holding a campaign by one of `addresses`. */
export function scopeToCreator(query: Record<string, unknown>, addresses: string[]): Record<string, unknown> {
  return { bool: { filter: [query, { terms: { creatorAddresses: addresses.map((a) => a.toLowerCase()) } }] } };
}

/**
 * GET /v4/creators/{creator}/opportunities: opportunities with a campaign by the creator, with the
 * CREATOR-OPP-FILTERS (api/routes/opportunities/schema.ts), paged and sorted like GET /v4/opportunities, each with the
 * creator's LIVE / SOON / PAST campaign counts (loadCreatorCampaignCounts).
 */
export function creatorOpportunitiesHandler(
  deps: ApiDeps,
): Handler<{ params: typeof creatorParams; query: typeof creatorOppFiltersQuery }> {
  const index = indexNames(deps.config.esIndexPrefix, 'opportunities').read;
  return async (ctx) => {
    const visible = await campaignVisibilityOf(deps, ctx.state, true);
    const { addresses } = await creatorOr404(deps, visible, ctx.state.params.creator);
    const q = ctx.state.query;
    const now = nowSeconds(deps);
    const { chains, filter } = await opportunityFilterContext(deps, undefined, now);
    const { query, sort } = buildOpportunityListQuery(q, now, filter);
    const docs = await searchPage<OpportunityDocument>({
      es: deps.es,
      index,
      query: scopeToCreator(query, addresses) as never,
      sort,
      page: q.page,
      items: q.items,
      timeoutMs: deps.config.esRequestTimeoutMs,
    });
    const counts = await loadCreatorCampaignCounts(
      deps.pg,
      docs.map((d) => d.id),
      addresses,
      now,
    );
    ctx.body = docs.map((d) => {
      const c = counts.get(d.id) ?? { live: 0, soon: 0, past: 0 };
      return {
        ...serializeOpportunity(d, chains, now),
        liveCampaignsForCreator: c.live,
        soonCampaignsForCreator: c.soon,
        pastCampaignsForCreator: c.past,
      };
    });
  };
}

/** GET /v4/creators/{creator}/opportunities/count: a bare JSON number. */
export function creatorOpportunitiesCountHandler(
  deps: ApiDeps,
): Handler<{ params: typeof creatorParams; query: typeof creatorOppCountQuery }> {
  const index = indexNames(deps.config.esIndexPrefix, 'opportunities').read;
  return async (ctx) => {
    const visible = await campaignVisibilityOf(deps, ctx.state, true);
    const { addresses } = await creatorOr404(deps, visible, ctx.state.params.creator);
    const now = nowSeconds(deps);
    const { filter } = await opportunityFilterContext(deps, undefined, now);
    const { query } = buildCountQuery(ctx.state.query, now, filter);
    const res = await deps.es.count(
      { index, query: scopeToCreator(query, addresses) as never },
      { requestTimeout: deps.config.esRequestTimeoutMs },
    );
    if (res._shards.failed > 0) throw new ServiceUnavailableError('elasticsearch');
    ctx.body = res.count;
  };
}
