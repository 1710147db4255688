import { loadCampaignFamily } from '../../reads/campaignReads.js';
import type { CampaignDocument } from '../../../domain/documents/campaignDocument.js';
import { nowSeconds, type ApiDeps } from '../../deps.js';
import { currentChainRecords } from '../../chainRecords.js';
import { searchCampaigns } from '../../visibility/campaignSearch.js';
import { PUBLIC_ONLY } from '../../visibility/campaignVisibility.js';
import { readCampaignMetrics, resolveCampaignOr404 } from '../../reads/campaigns/family.js';
import { splitList } from '../../reads/campaigns/params.js';
import { loadReallocations } from './reallocations.js';
import { serializeCampaign } from '../../reads/campaigns/serialize.js';
import type { Handler } from '../../validate.js';
import type {
  campaignRefParams,
  campaignMetricsQuery,
  linkedCampaignsQuery,
  noQuery,
} from '../../reads/campaigns/schema.js';
import { buildLinkedList, buildStoringIdsTree } from './tree.js';

/** GET /v4/campaigns/{id}/metrics: readCampaignMetrics. */
export function campaignMetricsHandler(
  deps: ApiDeps,
): Handler<{ params: typeof campaignRefParams; query: typeof campaignMetricsQuery }> {
  return async (ctx) => {
    ctx.body = await readCampaignMetrics(deps, ctx.state.params.id, ctx.state.query, ctx.state);
  };
}

/** GET /v4/campaigns/{id}/storing-ids: the campaign's storing ids and its sub-campaigns', as a tree. */
export function storingIdsHandler(deps: ApiDeps): Handler<{ params: typeof campaignRefParams; query: typeof noQuery }> {
  return async (ctx) => {
    const { dbId, visible } = await resolveCampaignOr404(deps, ctx.state.params.id, ctx.state);
    ctx.body = buildStoringIdsTree((await loadCampaignFamily(deps.pg, dbId, visible)).filter((r) => r.depth >= 0));
  };
}

/** GET /v4/campaigns/{id}/linked: parents up to the root plus the sub-campaign subtree, flat (tree.ts LinkedNode). */
export function linkedCampaignsHandler(
  deps: ApiDeps,
): Handler<{ params: typeof campaignRefParams; query: typeof linkedCampaignsQuery }> {
  return async (ctx) => {
    const raw = ctx.state.query;
    const q = { ...raw, tokenTypes: splitList(raw.tokenTypes) };
    const { dbId, visible } = await resolveCampaignOr404(deps, ctx.state.params.id, ctx.state);
    const nodes = buildLinkedList(await loadCampaignFamily(deps.pg, dbId, visible), q);
    if (!raw.campaigns) return void (ctx.body = nodes);
    const records = await campaignRecords(
      deps,
      nodes.map((n) => n.campaignId),
    );
    ctx.body = nodes.map((n) => ({ ...n, campaign: records.get(n.campaignId) ?? null }));
  };
}

/**
 * The public Campaign records of `ids`, each with its reallocations as GET /v4/campaigns/{id} serves
 * it (one terms query on the campaigns alias, one PostgreSQL query); private ones are absent.
 */
async function campaignRecords(deps: ApiDeps, ids: string[]) {
  const [res, chains, reallocations] = await Promise.all([
    searchCampaigns<CampaignDocument>(deps, PUBLIC_ONLY, { size: ids.length, query: { terms: { id: ids } } }),
    currentChainRecords(deps, nowSeconds(deps)),
    loadReallocations(deps.pg, ids),
  ]);
  return new Map(
    res.hits.hits.map((h) => [
      h._source!.id,
      { ...serializeCampaign(h._source!, chains), reallocations: reallocations.get(h._source!.id) ?? [] },
    ]),
  );
}
