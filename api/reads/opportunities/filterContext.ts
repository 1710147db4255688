import { currentChainContext, type ChainContext } from '../../chainRecords.js';
import type { ApiDeps } from '../../deps.js';
import { searchCampaigns } from '../../visibility/campaignSearch.js';
import { PUBLIC_ONLY } from '../../visibility/campaignVisibility.js';
import type { FilterContext } from './filters.js';

/** Opportunities sharing one on-chain campaign id: one per chain at most in practice; more is an error, never a cut. */
const MAX_OPPORTUNITIES_PER_CAMPAIGN_ID = 1000;

/**
 * The opportunities of the public campaigns whose on-chain id is `campaignId`, from the campaigns read
 * alias. The opportunity document does not list its campaign ids (an opportunity may have a million
 * campaigns), so the `campaignId` filter is resolved here; like the rest of the public projection it
 * sees public campaigns only (README "Campaign visibility").
 */
async function opportunitiesOfCampaignId(deps: ApiDeps, campaignId: string): Promise<string[]> {
  const res = await searchCampaigns<never>(deps, PUBLIC_ONLY, {
    size: 0,
    query: { term: { campaignId: campaignId.toLowerCase() } },
    aggs: { opportunities: { terms: { field: 'opportunityId', size: MAX_OPPORTUNITIES_PER_CAMPAIGN_ID + 1 } } },
  });
  const buckets = (res.aggregations!['opportunities'] as { buckets: { key: string }[] }).buckets;
  if (buckets.length > MAX_OPPORTUNITIES_PER_CAMPAIGN_ID)
    throw new Error(
      `campaign id ${campaignId} belongs to more than ${MAX_OPPORTUNITIES_PER_CAMPAIGN_ID} opportunities`,
    );
  return buckets.map((b) => b.key);
}

/**
 * What OPP-FILTERS need besides the parameters, for one request at `now`: the chains (their Chain
 * records, and test chains for the `test` filter) and, with a `campaignId` filter, the opportunities it names.
 */
export async function opportunityFilterContext(
  deps: ApiDeps,
  campaignId: string | undefined,
  now: number,
): Promise<{ chains: ChainContext['chains']; filter: Omit<FilterContext, 'now'> }> {
  const [{ chains, testChainIds }, campaignOpportunityIds] = await Promise.all([
    currentChainContext(deps, now),
    campaignId ? opportunitiesOfCampaignId(deps, campaignId) : undefined,
  ]);
  return { chains, filter: { testChainIds, ...(campaignOpportunityIds ? { campaignOpportunityIds } : {}) } };
}
