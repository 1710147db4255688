import { campaignTypeName } from '../../../domain/campaignTypes.js';
import type { CampaignFamilyRow } from '../../reads/campaignReads.js';
import { toConfiguration } from '../../../domain/campaignData/toConfiguration.js';
import type { LinkedCampaignsQuery } from '../../reads/campaigns/schema.js';

import { storingIdsOf as storingIdsOfRow, type StoringIdsNode } from '../storingIds.js';

export type { StoringIdsNode };

/** Pure: a row's main parameter, derived from its campaign data for rows written before decoding existed. */
function mainParameterOf(r: CampaignFamilyRow): string {
  if (r.main_parameter) return r.main_parameter;
  return toConfiguration({
    distributionChainId: r.distribution_chain_id,
    campaignId: r.campaign_id,
    campaignType: r.campaign_type,
    startTimestamp: Number(r.start_timestamp),
    duration: Number(r.end_timestamp) - Number(r.start_timestamp),
    campaignData: r.campaign_data,
  }).mainParameter;
}

/** Pure: storing ids of one campaign (see api/routes/storingIds.ts), its main parameter derived when missing. */
export function storingIdsOf(r: CampaignFamilyRow): string[] {
  return storingIdsOfRow({ ...r, main_parameter: mainParameterOf(r) });
}

/**
 * Pure: the storing-ids tree rooted at the requested campaign (depth 0) over its subtree rows.
 * `campaignId` is the internal id. Children are ordered by id.
 */
export function buildStoringIdsTree(rows: readonly CampaignFamilyRow[]): StoringIdsNode | null {
  const self = rows.find((r) => r.depth === 0);
  if (!self) return null;
  const children = new Map<string, CampaignFamilyRow[]>();
  for (const r of rows)
    if (r.depth > 0 && r.parent_campaign_id)
      children.set(r.parent_campaign_id, [...(children.get(r.parent_campaign_id) ?? []), r]);
  const node = (r: CampaignFamilyRow): StoringIdsNode => ({
    campaignId: r.id,
    storingIds: storingIdsOf(r),
    subCampaigns: (children.get(r.id) ?? []).sort((a, b) => a.id.localeCompare(b.id)).map(node),
  });
  return node(self);
}

/**
 * One node of `/linked`: `campaignId` and `parentCampaignId` are internal ids (as Campaign.id and
 * Campaign.parentCampaignId); `onChainCampaignId` is Campaign.campaignId; `depth` is relative to the
 * requested campaign (negative: ancestors, 0: itself, positive: sub-campaigns); `self` marks it.
 */
export type LinkedNode = {
  campaignId: string;
  parentCampaignId: string | null;
  onChainCampaignId: string;
  distributionChainId: number;
  computeChainId: number;
  type: string;
  startTimestamp: string;
  endTimestamp: string;
  depth: number;
  self: boolean;
};

/**
 * Pure: the flat family list, ancestors root-first then the requested campaign then its subtree by
 * depth. Filters never drop the requested campaign: `test=false` drops nodes rewarding in test
 * tokens, `point` true/false keeps only/drops point rewards, `tokenTypes` keeps those types,
 * `excludeSubCampaigns` drops the subtree.
 */
export function buildLinkedList(rows: readonly CampaignFamilyRow[], q: LinkedCampaignsQuery): LinkedNode[] {
  const keep = (r: CampaignFamilyRow) => {
    if (r.depth === 0) return true;
    if (q.excludeSubCampaigns && r.depth > 0) return false;
    const tokenType = r.token_type ?? 'TOKEN';
    if (!q.test && r.token_is_test) return false;
    if (q.point === true && tokenType !== 'POINT') return false;
    if (q.point === false && tokenType === 'POINT') return false;
    return !q.tokenTypes || q.tokenTypes.includes(tokenType);
  };
  return rows.filter(keep).map((r) => ({
    campaignId: r.id,
    parentCampaignId: r.parent_campaign_id,
    onChainCampaignId: r.campaign_id,
    distributionChainId: r.distribution_chain_id,
    computeChainId: r.compute_chain_id,
    type: campaignTypeName(r.campaign_type),
    startTimestamp: r.start_timestamp,
    endTimestamp: r.end_timestamp,
    depth: r.depth,
    self: r.depth === 0,
  }));
}
