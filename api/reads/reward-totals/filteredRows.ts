import type { DistributedRow } from '../distributedRewards.js';

/** What a distributed row is grouped by, from its campaign's document. */
export type CampaignFacets = {
  distributionChainId: number;
  type: string;
  mainProtocolId: string | null;
  opportunityId: string | null;
};

/** A distributed row of a campaign the filters kept, with its facets. */
export type FilteredRow = DistributedRow & { campaign: CampaignFacets };
