import DataLoader from 'dataloader';
import type { CampaignDocument } from '../../domain/documents/campaignDocument.js';
import type { CampaignRecord, ChainRecord, OpportunityRecord } from '../../domain/documents/records.js';
import { nowSeconds, type ApiDeps } from '../deps.js';
import { serializeCampaign } from '../reads/campaigns/serialize.js';
import { loadCampaignsOf, loadOpportunityDocuments } from '../reads/opportunities/readContext.js';
import { currentChainContext } from '../chainRecords.js';
import { serializeOpportunity } from '../reads/opportunities/serialize.js';
import { searchCampaigns } from '../visibility/campaignSearch.js';
import { buildByIdQuery } from '../reads/campaigns/query.js';
import type { PrivateVisibility } from '../reads/campaigns/query.js';

/** Campaigns of one opportunity in GraphQL (newest first): the bound the cost rule counts. */
export const MAX_NESTED_CAMPAIGNS = 100;
/** Ids per by-id search (below Elasticsearch's clause limit); more ids are more searches. */
const MAX_IDS_PER_SEARCH = 500;
import { PUBLIC_ONLY } from '../visibility/campaignVisibility.js';

/** Per-request batch loaders: every nested relation is one Elasticsearch query per level, whatever the page size. */
export type Loaders = {
  chains(): Promise<Map<number, ChainRecord>>;
  campaignsByOpportunity: DataLoader<string, CampaignRecord[]>;
  opportunityById: DataLoader<string, OpportunityRecord | null>;
  /** Key `${showPrivate ? 1 : 0}|${id}` (internal or composite id, as GET /v4/campaigns/{id} and its showPrivate). */
  campaignById: DataLoader<string, CampaignRecord | null>;
  /** Key `${distributionChainId}:${onChainCampaignId}`. */
  campaignByOnChainId: DataLoader<string, CampaignRecord | null>;
};

/**
 * Creates the loaders of one GraphQL request (dataloader batches the keys asked within one tick,
 * and caches them for the request only). Indices: the read aliases <prefix>-campaigns and
 * <prefix>-opportunities.
 */
export function createLoaders(
  deps: ApiDeps,
  visibility: (showPrivate: boolean) => Promise<PrivateVisibility> = async () => 'none',
): Loaders {
  const now = nowSeconds(deps);
  let chainsOnce: Promise<Map<number, ChainRecord>> | undefined;
  const chains = () => (chainsOnce ??= currentChainContext(deps, now).then((c) => c.chains));
  return {
    chains,
    campaignsByOpportunity: new DataLoader(async (ids) => {
      const byOpportunity = await loadCampaignsOf(deps, [...ids], await chains());
      return ids.map((id) => (byOpportunity.get(id) ?? []).slice(0, MAX_NESTED_CAMPAIGNS));
    }),
    opportunityById: new DataLoader(
      async (ids) => {
        const [docs, chainMap] = await Promise.all([loadOpportunityDocuments(deps, ids), chains()]);
        return ids.map((id) => {
          const doc = docs.get(id);
          return doc ? serializeOpportunity(doc, chainMap, now) : null;
        });
      },
      { maxBatchSize: MAX_IDS_PER_SEARCH },
    ),
    campaignById: new DataLoader(
      async (keys) => {
        // One search for the batch: each key is a named clause, its hit found by `matched_queries`.
        const [hidden, shown] = await Promise.all([
          visibility(false),
          keys.some((k) => k.startsWith('1|')) ? visibility(true) : ('none' as const),
        ]);
        const clauses = keys.map((key, i) => {
          const { query } = buildByIdQuery(key.slice(2), key.startsWith('1|') ? shown : hidden);
          return { bool: { ...query.bool, _name: String(i) } };
        });
        const [res, chainMap] = await Promise.all([
          // Each clause applies its own key's visibility; the outer one the widest asked for.
          searchCampaigns<CampaignDocument>(deps, keys.some((k) => k.startsWith('1|')) ? shown : hidden, {
            size: keys.length,
            query: { bool: { should: clauses, minimum_should_match: 1 } },
          }),
          chains(),
        ]);
        const found = new Array<CampaignRecord | null>(keys.length).fill(null);
        for (const hit of res.hits.hits)
          for (const name of (hit.matched_queries ?? []) as string[])
            found[Number(name)] ??= serializeCampaign(hit._source!, chainMap);
        return found;
      },
      { maxBatchSize: MAX_IDS_PER_SEARCH },
    ),
    campaignByOnChainId: new DataLoader(
      async (keys) => {
        const onChainIds = [...new Set(keys.map((k) => k.slice(k.indexOf(':') + 1).toLowerCase()))];
        const [res, chainMap] = await Promise.all([
          searchCampaigns<CampaignDocument>(deps, PUBLIC_ONLY, {
            size: Math.min(10_000, onChainIds.length * 10),
            query: { terms: { campaignId: onChainIds } },
          }),
          chains(),
        ]);
        const found = new Map(
          res.hits.hits.map((h) => [
            `${h._source!.distributionChainId}:${h._source!.campaignId.toLowerCase()}`,
            serializeCampaign(h._source!, chainMap),
          ]),
        );
        return keys.map((k) => found.get(k.toLowerCase()) ?? null);
      },
      { maxBatchSize: MAX_IDS_PER_SEARCH },
    ),
  };
}
