/** Campaign type 4 (JSON_AIRDROP) is stateless: nothing is indexed for it, so it stores nothing. */
const STATELESS_TYPES = new Set([4]);

/**
 * One node of a storing-ids tree: `campaignId` is the internal campaign id (as Campaign.id), and
 * `subCampaigns` its sub-campaigns recursively (docs/api-behaviour.md#storing-ids, shared by the campaign and
 * opportunity routes).
 */
export type StoringIdsNode = { campaignId: string; storingIds: string[]; subCampaigns: StoringIdsNode[] };

/**
 * Pure: the storing ids of one campaign. Convention: the indexing state of a campaign is keyed by
 * the chain it is computed on and its main parameter, `${computeChainId}_${mainParameter}`, so
 * campaigns on the same pool share it; stateless types (JSON_AIRDROP) give [].
 */
export function storingIdsOf(r: {
  campaign_type: number;
  compute_chain_id: number;
  main_parameter: string | null;
}): string[] {
  if (STATELESS_TYPES.has(r.campaign_type) || !r.main_parameter) return [];
  return [`${r.compute_chain_id}_${r.main_parameter}`];
}
