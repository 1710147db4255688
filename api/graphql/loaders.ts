import DataLoader from 'dataloader';
import type { CampaignDocument } from '../../indexer/documents/campaignDocument.js';
import type { ChainRecord } from '../../indexer/documents/records.js';
import { indexNames } from '../../internal/es.js';
import { nowSeconds, type ApiDeps } from '../deps.js';
import { serializeCampaign } from '../routes/campaigns/serialize.js';
import { loadCampaignsOf, loadOpportunityDocuments } from '../routes/opportunities/readContext.js';
import { currentChainContext } from '../chainRecords.js';
import { serializeOpportunity } from '../routes/opportunities/serialize.js';
import { searchOnce } from '../search/searchOnce.js';
import { hiddenCampaignDocuments, PUBLIC_ONLY } from '../visibility/campaignVisibility.js';

export type CampaignRecord = ReturnType<typeof serializeCampaign>;
export type OpportunityRecord = ReturnType<typeof serializeOpportunity>;

/** Per-request batch loaders: every nested relation is one Elasticsearch query per level, whatever the page size. */
export type Loaders = {
  chains(): Promise<Map<number, ChainRecord>>;
  campaignsByOpportunity: DataLoader<string, CampaignRecord[]>;
  opportunityById: DataLoader<string, OpportunityRecord | null>;
  /** Key `${distributionChainId}:${onChainCampaignId}`. */
  campaignByOnChainId: DataLoader<string, CampaignRecord | null>;
};

/**
 * Creates the loaders of one GraphQL request (dataloader batches the keys asked within one tick,
 * and caches them for the request only). Indices: the read aliases <prefix>-campaigns and
 * <prefix>-opportunities.
 */
export function createLoaders(deps: ApiDeps): Loaders {
  const now = nowSeconds(deps);
  let chainsOnce: Promise<Map<number, ChainRecord>> | undefined;
  const chains = () => (chainsOnce ??= currentChainContext(deps, now).then((c) => c.chains));
  const campaignsIndex = indexNames(deps.config.esIndexPrefix, 'campaigns').read;
  return {
    chains,
    campaignsByOpportunity: new DataLoader(async (ids) => {
      const byOpportunity = await loadCampaignsOf(deps, [...ids], await chains());
      return ids.map((id) => byOpportunity.get(id) ?? []);
    }),
    opportunityById: new DataLoader(async (ids) => {
      const [docs, chainMap] = await Promise.all([loadOpportunityDocuments(deps, ids), chains()]);
      return ids.map((id) => {
        const doc = docs.get(id);
        return doc ? serializeOpportunity(doc, chainMap, now) : null;
      });
    }),
    campaignByOnChainId: new DataLoader(async (keys) => {
      const onChainIds = [...new Set(keys.map((k) => k.slice(k.indexOf(':') + 1).toLowerCase()))];
      const [res, chainMap] = await Promise.all([
        searchOnce<CampaignDocument>(deps, campaignsIndex, { size: Math.min(10_000, onChainIds.length * 10), query: { bool: { filter: [{ terms: { campaignId: onChainIds } }], must_not: [hiddenCampaignDocuments(PUBLIC_ONLY)!] } } }),
        chains(),
      ]);
      const found = new Map(res.hits.hits.map((h) => [`${h._source!.distributionChainId}:${h._source!.campaignId.toLowerCase()}`, serializeCampaign(h._source!, chainMap)]));
      return keys.map((k) => found.get(k.toLowerCase()) ?? null);
    }),
  };
}
