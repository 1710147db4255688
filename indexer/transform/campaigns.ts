import { keccak256, type Hex } from 'viem';
import { boundedMemo } from '../../internal/boundedMemo.js';
import { actionOf, campaignTypeName, type OpportunityAction } from '../../domain/campaignTypes.js';
import { decodeCampaignData, type DecodedCampaignData } from '../../domain/campaignData/decodeCampaignData.js';
import type { CampaignOverrideEvent, CampaignReallocationEvent, LogPosition, NewCampaignEvent } from '../decode.js';
import { campaignDbId, opportunityDbId } from '../../domain/ids.js';

/** What every chain-derived row carries to be rolled back on a reorg. */
type Positioned = { blockNumber: number; blockHash: string; txHash: string; logIndex: number };

/** The configuration fields a creation and an override both set. */
type Configuration = {
  campaignType: number;
  computeChainId: number;
  startTimestamp: number;
  endTimestamp: number;
  campaignData: Hex;
  mainParameter: string;
  opportunityId: string;
  /** Internal id of the parent campaign of a sub-campaign, else null. */
  parentCampaignId: string | null;
  params: Record<string, unknown>;
};

export type CampaignRow = Positioned & Configuration & {
  id: string;
  distributionChainId: number;
  campaignId: string;
  creator: string;
  rewardToken: string;
  amount: string;
  createdAt: Date;
};

export type CampaignOverrideRow = Positioned & Configuration & { chainId: number; campaignDbId: string; campaignId: string; timestamp: number };

export type CampaignReallocationRow = Positioned & { chainId: number; campaignDbId: string; campaignId: string; from: string[]; to: string; timestamp: number };

export type OpportunityRow = { id: string; chainId: number; type: string; identifier: string; action: OpportunityAction };

function positioned(e: LogPosition): Positioned {
  return { blockNumber: e.blockNumber, blockHash: e.blockHash.toLowerCase(), txHash: e.txHash.toLowerCase(), logIndex: e.logIndex };
}

function timestampOf(e: LogPosition, blockTimestamps: ReadonlyMap<number, number>): number {
  const ts = blockTimestamps.get(e.blockNumber);
  if (ts === undefined) throw new Error(`missing timestamp of block ${e.blockNumber} on chain ${e.chainId}`);
  return ts;
}

/**
 * decodeCampaignData and the opportunity id, remembered per distinct input: the campaigns of a
 * program mostly repeat one data payload (same pool or token), and decoding plus hashing was most
 * of the indexer's CPU time per campaign (bench:peer). The decoded value is frozen: it is shared.
 */
const decodeRemembered = boundedMemo(
  (campaignType: number, campaignData: Hex): Readonly<DecodedCampaignData> => deepFreeze(decodeCampaignData(campaignType, campaignData)),
  (campaignType, campaignData) => `${campaignType}:${campaignData}`,
);
const opportunityIdRemembered = boundedMemo(opportunityDbId, (chainId, type, identifier) => `${chainId}\n${type}\n${identifier}`);

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/**
 * Pure: a campaign configuration, decoded, with the opportunity it belongs to: grouping key
 * compute chain + type name + identifier (the data's pool/vault/token, else the campaign id).
 */
export function toConfiguration(c: { distributionChainId: number; campaignId: string; campaignType: number; startTimestamp: number; duration: number; campaignData: Hex }): Configuration {
  const decoded = decodeRemembered(c.campaignType, c.campaignData);
  const computeChainId = decoded.computeChainId ?? c.distributionChainId;
  const mainParameter = decoded.mainParameter ?? c.campaignId.toLowerCase();
  return {
    campaignType: c.campaignType,
    computeChainId,
    startTimestamp: c.startTimestamp,
    endTimestamp: c.startTimestamp + c.duration,
    campaignData: c.campaignData,
    mainParameter,
    opportunityId: opportunityIdRemembered(computeChainId, campaignTypeName(c.campaignType), mainParameter),
    parentCampaignId: decoded.parentCampaignId ? campaignDbId(c.distributionChainId, decoded.parentCampaignId) : null,
    params: decoded.decodeError ? { ...decoded.params, decodeError: decoded.decodeError } : decoded.params,
  };
}

/**
 * Pure: NewCampaign events → campaign rows. `blockTimestamps` maps block number → Unix seconds,
 * used as the campaign's creation time. Addresses are lower-cased once here.
 */
export function toCampaignRows(events: NewCampaignEvent[], blockTimestamps: ReadonlyMap<number, number>): CampaignRow[] {
  return events.map((e) => ({
    ...positioned(e),
    ...toConfiguration({ ...e, distributionChainId: e.chainId }),
    id: campaignDbId(e.chainId, e.campaignId),
    distributionChainId: e.chainId,
    campaignId: e.campaignId.toLowerCase(),
    creator: e.creator.toLowerCase(),
    rewardToken: e.rewardToken.toLowerCase(),
    amount: e.amount.toString(),
    createdAt: new Date(timestampOf(e, blockTimestamps) * 1000),
  }));
}

/** Pure: CampaignOverride events → override rows (the override time is its block's time). */
export function toOverrideRows(events: CampaignOverrideEvent[], blockTimestamps: ReadonlyMap<number, number>): CampaignOverrideRow[] {
  return events.map((e) => ({
    ...positioned(e),
    ...toConfiguration({ ...e, distributionChainId: e.chainId }),
    chainId: e.chainId,
    campaignDbId: campaignDbId(e.chainId, e.campaignId),
    campaignId: e.campaignId.toLowerCase(),
    timestamp: timestampOf(e, blockTimestamps),
  }));
}

/** Pure: CampaignReallocation events → reallocation rows. */
export function toReallocationRows(events: CampaignReallocationEvent[], blockTimestamps: ReadonlyMap<number, number>): CampaignReallocationRow[] {
  return events.map((e) => ({
    ...positioned(e),
    chainId: e.chainId,
    campaignDbId: campaignDbId(e.chainId, e.campaignId),
    campaignId: e.campaignId.toLowerCase(),
    from: e.from.map((a) => a.toLowerCase()),
    to: e.to.toLowerCase(),
    timestamp: timestampOf(e, blockTimestamps),
  }));
}

/** Pure: the distinct opportunities the given configurations belong to. */
export function toOpportunityRows(configs: Configuration[]): OpportunityRow[] {
  const byId = new Map<string, OpportunityRow>();
  for (const c of configs) {
    const type = campaignTypeName(c.campaignType);
    byId.set(c.opportunityId, { id: c.opportunityId, chainId: c.computeChainId, type, identifier: c.mainParameter, action: actionOf(type) });
  }
  return [...byId.values()];
}

/** Pure: hash of the campaign configuration encoding (the Campaign `campaignEncodingHash` field). */
export function campaignEncodingHash(data: Hex): string {
  return keccak256(data);
}
