import type { OpportunityDocument } from '../../../domain/documents/opportunityDocument.js';
import { indexNames } from '../../../internal/es.js';
import type { ApiDeps } from '../../deps.js';
import { searchPage } from '../../search/searchPage.js';
import { searchCampaigns } from '../../visibility/campaignSearch.js';
import { PUBLIC_ONLY } from '../../visibility/campaignVisibility.js';

/** Members read per search while walking a page of programs' opportunities. */
const MEMBER_BATCH = 1000;
/** Members of one request's programs at most (a page of programs); more is an error, never a silent cut. */
export const MAX_MEMBERS = 20_000;

/**
 * The opportunity documents of the programs named by `slugs` (documents whose `programSlugs` hold one), richest first
 * (daily rewards desc, then id). Documents exist for opportunities with a public campaign only (the public projection,
 * README "Campaign visibility"), so an opportunity whose campaigns are all private is in no program's figures.
 */
export async function loadMemberDocuments(deps: ApiDeps, slugs: readonly string[]): Promise<OpportunityDocument[]> {
  if (!slugs.length) return [];
  const docs: OpportunityDocument[] = [];
  for (let page = 0; ; page++) {
    const batch = await searchPage<OpportunityDocument>({
      es: deps.es,
      index: indexNames(deps.config.esIndexPrefix, 'opportunities').read,
      query: { terms: { programSlugs: [...slugs] } },
      sort: [{ dailyRewards: { order: 'desc', missing: '_last' } }, { id: { order: 'asc' } }],
      page,
      items: MEMBER_BATCH,
      timeoutMs: deps.config.esRequestTimeoutMs,
    });
    docs.push(...batch);
    if (batch.length < MEMBER_BATCH) return docs;
    if (docs.length >= MAX_MEMBERS)
      throw new Error(`programs ${slugs.join(',')} have more than ${MAX_MEMBERS} opportunities`);
  }
}

/** Public campaigns per opportunity id (the campaigns read alias through the visibility rule, public only). */
export async function publicCampaignCounts(deps: ApiDeps, ids: readonly string[]): Promise<Map<string, number>> {
  if (!ids.length) return new Map();
  const res = await searchCampaigns<never>(deps, PUBLIC_ONLY, {
    size: 0,
    query: { terms: { opportunityId: [...ids] } },
    aggs: { byOpportunity: { terms: { field: 'opportunityId', size: ids.length } } },
  });
  const buckets = (res.aggregations!['byOpportunity'] as { buckets: { key: string; doc_count: number }[] }).buckets;
  return new Map(buckets.map((b) => [b.key, b.doc_count]));
}
