import { actionOf, campaignTypeName, type OpportunityAction } from '../../domain/campaignTypes.js';
import { toConfiguration, type Configuration } from '../../domain/campaignData/toConfiguration.js';
import type { LogPosition } from '../../domain/logPosition.js';
import type { CampaignOverrideEvent, CampaignReallocationEvent, NewCampaignEvent } from '../decode/campaignEvents.js';
import { campaignDbId } from '../../domain/ids.js';

/** What every chain-derived row carries to be rolled back on a reorg. */
type Positioned = { blockNumber: number; blockHash: string; txHash: string; logIndex: number };

export type CampaignRow = Positioned &
  Configuration & {
    id: string;
    distributionChainId: number;
    campaignId: string;
    creator: string;
    rewardToken: string;
    amount: string;
    createdAt: Date;
  };

export type CampaignOverrideRow = Positioned &
  Configuration & { chainId: number; campaignDbId: string; campaignId: string; timestamp: number };

export type CampaignReallocationRow = Positioned & {
  chainId: number;
  campaignDbId: string;
  campaignId: string;
  from: string[];
  to: string;
  timestamp: number;
};

export type OpportunityRow = {
  id: string;
  chainId: number;
  type: string;
  identifier: string;
  action: OpportunityAction;
};

function positioned(e: LogPosition): Positioned {
  return {
    blockNumber: e.blockNumber,
    blockHash: e.blockHash.toLowerCase(),
    txHash: e.txHash.toLowerCase(),
    logIndex: e.logIndex,
  };
}

function timestampOf(e: LogPosition, blockTimestamps: ReadonlyMap<number, number>): number {
  const ts = blockTimestamps.get(e.blockNumber);
  if (ts === undefined) throw new Error(`missing timestamp of block ${e.blockNumber} on chain ${e.chainId}`);
  return ts;
}

/**
 * Pure: NewCampaign events → campaign rows. `blockTimestamps` maps block number → Unix seconds,
 * used as the campaign's creation time. Addresses are lower-cased once here.
 */
export function toCampaignRows(
  events: NewCampaignEvent[],
  blockTimestamps: ReadonlyMap<number, number>,
): CampaignRow[] {
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
export function toOverrideRows(
  events: CampaignOverrideEvent[],
  blockTimestamps: ReadonlyMap<number, number>,
): CampaignOverrideRow[] {
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
export function toReallocationRows(
  events: CampaignReallocationEvent[],
  blockTimestamps: ReadonlyMap<number, number>,
): CampaignReallocationRow[] {
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
    byId.set(c.opportunityId, {
      id: c.opportunityId,
      chainId: c.computeChainId,
      type,
      identifier: c.mainParameter,
      action: actionOf(type),
    });
  }
  return [...byId.values()];
}
