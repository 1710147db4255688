import { unpricedOf } from '../../../domain/documents/unpriced.js';
import type { CampaignDocument } from '../../../domain/documents/campaignDocument.js';
import type { CampaignRecord, ChainRecord, LightOpportunityRecord } from '../../../domain/documents/records.js';
import { LIGHT_OPPORTUNITY_FIELDS } from './query.js';

/**
 * Pure: an opportunity search document (its LIGHT_OPPORTUNITY_FIELDS, which name the record's every
 * field) → the light opportunity of a campaign (docs/api-behaviour.md#light-opportunity), absent fields null.
 */
export function serializeLightOpportunity(doc: Record<string, unknown>): LightOpportunityRecord {
  return Object.fromEntries(LIGHT_OPPORTUNITY_FIELDS.map((f) => [f, doc[f] ?? null])) as LightOpportunityRecord;
}

/**
 * Pure: the Campaign record with its light opportunity under `opportunity`, named like every other
 * field (issue 31); `null` when the opportunity has no document yet. `Opportunity` carries the same
 * object, deprecated: the hosted service's union variant, which the published client reads.
 */
export function serializeCampaignWithOpportunity(
  doc: CampaignDocument,
  chains: ReadonlyMap<number, ChainRecord>,
  opportunities: ReadonlyMap<string, Record<string, unknown>>,
) {
  const found = opportunities.get(doc.opportunityId);
  const opportunity = found ? serializeLightOpportunity(found) : null;
  return { ...serializeCampaign(doc, chains), opportunity, Opportunity: opportunity };
}

/**
 * Pure: a campaign search document → the public Campaign record, every field named (search-only
 * fields dropped). Chains are the current records, so `liveCampaigns` is fresh. Unix timestamps
 * are decimal strings, as bigints are.
 */
export function serializeCampaign(doc: CampaignDocument, chains: ReadonlyMap<number, ChainRecord>): CampaignRecord {
  return {
    id: doc.id,
    computeChainId: doc.computeChainId,
    distributionChainId: doc.distributionChainId,
    campaignId: doc.campaignId,
    type: doc.type,
    subType: doc.subType,
    amount: doc.amount,
    startTimestamp: String(doc.startTimestamp),
    endTimestamp: String(doc.endTimestamp),
    creatorAddress: doc.creatorAddress,
    apr: doc.apr,
    dailyRewards: doc.dailyRewards,
    ...unpricedOf(doc),
    creator: doc.creator,
    params: doc.params,
    description: doc.description,
    chain: chains.get(doc.computeChainId) ?? null,
    rewardTokenId: doc.rewardTokenId,
    rewardToken: doc.rewardToken,
    opportunityId: doc.opportunityId,
    distributionChain: chains.get(doc.distributionChainId) ?? null,
    distributionType: doc.distributionType,
    campaignStatus: doc.campaignStatus,
    createdAt: doc.createdAt,
    rootCampaignId: doc.rootCampaignId,
    parentCampaignId: doc.parentCampaignId,
    childCampaignIds: doc.childCampaignIds,
    dailyRewardsBreakdown: doc.dailyRewardsBreakdown,
    pauseCompute: doc.pauseCompute,
    pausePrecompute: doc.pausePrecompute,
    hasOverrides: doc.hasOverrides,
    isPrivate: doc.isPrivate,
    hidden: doc.hidden,
    hideLeaderboard: doc.hideLeaderboard,
    campaignEncodingHash: doc.campaignEncodingHash,
  };
}
