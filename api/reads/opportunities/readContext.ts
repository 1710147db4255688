import { PUBLIC_ONLY } from '../../visibility/campaignVisibility.js';
import { searchCampaigns } from '../../visibility/campaignSearch.js';
import type { CampaignDocument } from '../../../domain/documents/campaignDocument.js';
import type { OpportunityDocument } from '../../../domain/documents/opportunityDocument.js';
import type { CampaignRecord, ChainRecord } from '../../../domain/documents/records.js';
import { opportunityDbId } from '../../../domain/ids.js';
import { indexNames } from '../../../internal/es.js';
import type { ApiDeps } from '../../deps.js';
import { NotFoundError } from '../../errors.js';
import { searchOnce } from '../../search/searchOnce.js';
import { serializeCampaign } from '../campaigns/serialize.js';

/** Campaigns attached per request with `campaigns=true` (one terms query for the whole page). */
const MAX_ATTACHED_CAMPAIGNS = 10_000;

/** Pure: the internal id of a path id, a numeric hash as is or the hash of composite `chainId-TYPE-identifier`. */
export function resolveOpportunityId(id: string): string {
  const composite = /^(\d+)-([0-9A-Z_]+)-(.+)$/.exec(id);
  return composite ? opportunityDbId(Number(composite[1]), composite[2]!, composite[3]!) : id;
}

/** The opportunity document of a path id from the read alias <prefix>-opportunities, or a 404. */
export async function getOpportunityDocument(deps: ApiDeps, pathId: string): Promise<OpportunityDocument> {
  const id = resolveOpportunityId(pathId);
  const res = await searchOnce<OpportunityDocument>(deps, indexNames(deps.config.esIndexPrefix, 'opportunities').read, {
    size: 1,
    query: { term: { id } },
  });
  const doc = res.hits.hits[0]?._source;
  if (!doc) throw new NotFoundError(`No opportunity ${pathId}`);
  return doc;
}

/** Opportunity documents by internal id, from the read alias in one terms query (absent ids are simply missing). */
export async function loadOpportunityDocuments(
  deps: ApiDeps,
  ids: readonly string[],
): Promise<Map<string, OpportunityDocument>> {
  if (!ids.length) return new Map();
  const res = await searchOnce<OpportunityDocument>(deps, indexNames(deps.config.esIndexPrefix, 'opportunities').read, {
    size: ids.length,
    query: { terms: { id: [...ids] } },
  });
  return new Map(res.hits.hits.map((h) => [h._source!.id, h._source!]));
}

/**
 * Campaign records of the given opportunities, grouped by opportunity id: one terms query on the
 * read alias <prefix>-campaigns, newest first.
 */
export async function loadCampaignsOf(
  deps: ApiDeps,
  opportunityIds: string[],
  chains: ReadonlyMap<number, ChainRecord>,
) {
  const out = new Map<string, CampaignRecord[]>();
  if (!opportunityIds.length) return out;
  const res = await searchCampaigns<CampaignDocument>(deps, PUBLIC_ONLY, {
    size: MAX_ATTACHED_CAMPAIGNS,
    query: { terms: { opportunityId: opportunityIds } },
    sort: [{ createdAt: 'desc' }, { id: 'asc' }],
  });
  for (const hit of res.hits.hits) {
    const doc = hit._source!;
    out.set(doc.opportunityId, [...(out.get(doc.opportunityId) ?? []), serializeCampaign(doc, chains)]);
  }
  return out;
}
