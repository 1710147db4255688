import type { CampaignListRow } from './repo.js';

/** A campaign list as the API answers it. */
export const serializeCampaignList = (r: CampaignListRow) => ({
  owner: r.owner,
  name: r.name,
  campaignIds: r.campaign_ids,
  createdAt: r.created_at.toISOString(),
  updatedAt: r.updated_at.toISOString(),
});
