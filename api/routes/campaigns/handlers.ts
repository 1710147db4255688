import type { Context } from 'koa';
import { toChainRecord, type ChainRecord } from '../../../indexer/documents/records.js';
import type { CampaignDocument } from '../../../indexer/documents/campaignDocument.js';
import { currentChainRows } from '../../chainRecords.js';
import { loadCampaignListIds } from '../../../indexer/store/campaignLists.js';
import { findCampaignIdsByTx } from '../../../indexer/store/campaignReads.js';
import { indexNames } from '../../../internal/es.js';
import { nowSeconds, type ApiDeps } from '../../deps.js';
import { NotFoundError, ServiceUnavailableError, ValidationError } from '../../errors.js';
import { searchPage } from '../../search/searchPage.js';
import { toListParams } from './params.js';
import { buildByIdQuery, buildListQuery, buildOpportunitiesQuery } from './query.js';
import type { CampaignTxQuery, ListCampaignsQuery } from './schema.js';
import { serializeCampaign, serializeCampaignWithOpportunity } from './serialize.js';

/** Current chain records keyed by id (compute and distribution chains of a page). */
export async function chainMap(deps: ApiDeps, now: number): Promise<Map<number, ChainRecord>> {
  const rows = await currentChainRows(deps, now);
  return new Map(rows.map((r) => [r.id, toChainRecord(r)]));
}

/** Light opportunities of a page, read from the opportunities alias in one terms query. */
async function opportunitiesOf(deps: ApiDeps, docs: CampaignDocument[]): Promise<Map<string, Record<string, unknown>>> {
  if (!docs.length) return new Map();
  const index = indexNames(deps.config.esIndexPrefix, 'opportunities').read;
  const timeoutMs = deps.config.esRequestTimeoutMs;
  const res = await deps.es.search<Record<string, unknown>>({ index, ...buildOpportunitiesQuery(docs.map((d) => d.opportunityId)), timeout: `${timeoutMs}ms` }, { requestTimeout: timeoutMs });
  if (res.timed_out) throw new ServiceUnavailableError('elasticsearch');
  return new Map(res.hits.hits.map((h) => [String(h._source!['id']), h._source!]));
}

/** GET /v4/campaigns: every spec filter over the read alias <prefix>-campaigns, paged by searchPage. */
export function listCampaignsHandler(deps: ApiDeps) {
  const index = indexNames(deps.config.esIndexPrefix, 'campaigns').read;
  return async (ctx: Context): Promise<void> => {
    const q = ctx.state.query as ListCampaignsQuery;
    if (q.showPrivate) ctx.state.private = true;
    const normalized = toListParams(q);
    if ('errors' in normalized) throw new ValidationError(normalized.errors);
    const p = normalized.params;
    const listIds = p.listOwner && p.campaignLists ? await loadCampaignListIds(deps.pg, p.listOwner, p.campaignLists) : undefined;
    const now = nowSeconds(deps);
    const { query, sort } = buildListQuery(p, now, listIds);
    const [docs, chains] = await Promise.all([
      searchPage<CampaignDocument>({ es: deps.es, index, query, sort, page: p.page, items: p.items, timeoutMs: deps.config.esRequestTimeoutMs }),
      chainMap(deps, now),
    ]);
    if (!q.withOpportunity) return void (ctx.body = docs.map((d) => serializeCampaign(d, chains)));
    const opportunities = await opportunitiesOf(deps, docs);
    ctx.body = docs.map((d) => serializeCampaignWithOpportunity(d, chains, opportunities));
  };
}

/** GET /v4/campaigns/{id}: one campaign by internal id or `distributionChainId-campaignId`; 404 when absent. */
export function getCampaignHandler(deps: ApiDeps) {
  const index = indexNames(deps.config.esIndexPrefix, 'campaigns').read;
  return async (ctx: Context): Promise<void> => {
    const { id } = ctx.state.params as { id: string };
    if ((ctx.state.query as { showPrivate?: boolean }).showPrivate) ctx.state.private = true;
    const timeoutMs = deps.config.esRequestTimeoutMs;
    const res = await deps.es.search<CampaignDocument>({ index, ...buildByIdQuery(id), timeout: `${timeoutMs}ms` }, { requestTimeout: timeoutMs });
    if (res.timed_out) throw new ServiceUnavailableError('elasticsearch');
    const doc = res.hits.hits[0]?._source;
    if (!doc) throw new NotFoundError(`No campaign ${id}`);
    ctx.body = serializeCampaign(doc, await chainMap(deps, nowSeconds(deps)));
  };
}

/** GET /v4/campaigns/tx: internal ids of the campaigns a creation transaction created (`[]` if none). */
export function campaignsByTxHandler(deps: ApiDeps) {
  return async (ctx: Context): Promise<void> => {
    const q = ctx.state.query as CampaignTxQuery;
    ctx.body = await findCampaignIdsByTx(deps.pg, q.chainId, q.hash);
  };
}
