import type { CampaignDocument } from '../../../domain/documents/campaignDocument.js';
import { indexNames } from '../../../internal/es.js';
import { currentChainRecords } from '../../chainRecords.js';
import { nowSeconds, type ApiDeps } from '../../deps.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import { searchOnce } from '../../search/searchOnce.js';
import { pageCampaigns, searchCampaigns } from '../../visibility/campaignSearch.js';
import { resolveVisibleCampaignDbId } from '../../visibility/campaignVisibility.js';
import { loadCampaignListIds } from '../campaignLists.js';
import { toListParams } from './params.js';
import { buildByIdQuery, buildListQuery, buildOpportunitiesQuery, type PrivateVisibility } from './query.js';
import type { ListCampaignsQuery } from './schema.js';
import { opportunityIdsByWord } from './searchOpportunities.js';
import { searchWords } from './searchWords.js';
import { serializeCampaign, serializeCampaignWithOpportunity } from './serialize.js';

/** Light opportunities of a page, read from the opportunities alias in one terms query. */
async function opportunitiesOf(deps: ApiDeps, docs: CampaignDocument[]): Promise<Map<string, Record<string, unknown>>> {
  if (!docs.length) return new Map();
  const res = await searchOnce<Record<string, unknown>>(
    deps,
    indexNames(deps.config.esIndexPrefix, 'opportunities').read,
    buildOpportunitiesQuery(docs.map((d) => d.opportunityId)),
  );
  return new Map(res.hits.hits.map((h) => [String(h._source!['id']), h._source!]));
}

/**
 * The Elasticsearch query of validated list parameters (every filter of listCampaignsQuery, with the
 * campaign lists and search words resolved first): what GET /v4/campaigns lists and /campaigns/count counts.
 */
export async function campaignListQuery(deps: ApiDeps, q: ListCampaignsQuery, visible: PrivateVisibility) {
  const normalized = toListParams(q);
  if ('errors' in normalized) throw new ValidationError(normalized.errors);
  const p = normalized.params;
  const listIds =
    p.listOwner && p.campaignLists ? await loadCampaignListIds(deps.pg, p.listOwner, p.campaignLists) : undefined;
  const now = nowSeconds(deps);
  const searchIds = p.search ? await opportunityIdsByWord(deps, searchWords(p.search)) : undefined;
  const { query, sort } = buildListQuery(p, now, listIds, visible, searchIds);
  return { p, now, query, sort };
}

/**
 * The campaigns of validated list parameters (every filter of listCampaignsQuery over the read alias
 * <prefix>-campaigns, paged by searchPage), with their light opportunity when `withOpportunity`;
 * private campaigns only as `visible` allows (GraphQL: none).
 * Shared by GET /v4/campaigns and the GraphQL `campaigns` field.
 */
export async function listCampaigns(deps: ApiDeps, q: ListCampaignsQuery, visible: PrivateVisibility = 'none') {
  const { p, now, query, sort } = await campaignListQuery(deps, q, visible);
  const [docs, chains] = await Promise.all([
    pageCampaigns<CampaignDocument>(deps, visible, { query, sort, page: p.page, items: p.items }),
    currentChainRecords(deps, now),
  ]);
  if (!q.withOpportunity) return docs.map((d) => serializeCampaign(d, chains));
  const opportunities = await opportunitiesOf(deps, docs);
  return docs.map((d) => serializeCampaignWithOpportunity(d, chains, opportunities));
}

/**
 * One campaign record by internal id, `distributionChainId-campaignId` or the bare on-chain id
 * (resolved in PostgreSQL first: resolveVisibleCampaignDbId); NotFoundError when absent.
 */
export async function getCampaign(deps: ApiDeps, id: string, visible: PrivateVisibility = 'none') {
  const dbId = id.startsWith('0x') ? await resolveVisibleCampaignDbId(deps.pg, id, visible) : id;
  if (!dbId) throw new NotFoundError(`No campaign ${id}`);
  const res = await searchCampaigns<CampaignDocument>(deps, visible, buildByIdQuery(dbId, visible));
  const doc = res.hits.hits[0]?._source;
  if (!doc) throw new NotFoundError(`No campaign ${id}`);
  return serializeCampaign(doc, await currentChainRecords(deps, nowSeconds(deps)));
}
