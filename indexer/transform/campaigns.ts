import { keccak256, type Hex } from 'viem';
import type { NewCampaignEvent } from '../decode.js';
import { leadingAddress, unwrapCampaignData } from '../decode.js';
import { campaignDbId } from '../ids.js';

export type CampaignRow = {
  id: string;
  distributionChainId: number;
  computeChainId: number;
  campaignId: string;
  creator: string;
  rewardToken: string;
  amount: string;
  campaignType: number;
  startTimestamp: number;
  endTimestamp: number;
  campaignData: Hex;
  blockNumber: number;
  blockHash: string;
  txHash: string;
  logIndex: number;
  createdAt: Date;
};

/**
 * Pure: NewCampaign events → campaign rows. `blockTimestamps` maps block number → Unix seconds,
 * used as the campaign's creation time. Addresses are lower-cased once here.
 */
export function toCampaignRows(events: NewCampaignEvent[], blockTimestamps: ReadonlyMap<number, number>): CampaignRow[] {
  return events.map((e) => {
    const ts = blockTimestamps.get(e.blockNumber);
    if (ts === undefined) throw new Error(`missing timestamp of block ${e.blockNumber} on chain ${e.chainId}`);
    const { computeChainId } = unwrapCampaignData(e.campaignData);
    return {
      id: campaignDbId(e.chainId, e.campaignId),
      distributionChainId: e.chainId,
      computeChainId: computeChainId ?? e.chainId,
      campaignId: e.campaignId.toLowerCase(),
      creator: e.creator.toLowerCase(),
      rewardToken: e.rewardToken.toLowerCase(),
      amount: e.amount.toString(),
      campaignType: e.campaignType,
      startTimestamp: e.startTimestamp,
      endTimestamp: e.startTimestamp + e.duration,
      campaignData: e.campaignData,
      blockNumber: e.blockNumber,
      blockHash: e.blockHash.toLowerCase(),
      txHash: e.txHash.toLowerCase(),
      logIndex: e.logIndex,
      createdAt: new Date(ts * 1000),
    };
  });
}

/** Pure: the identifier grouping a campaign into an opportunity (pool, vault, token or the campaign id). */
export function mainParameterOf(row: Pick<CampaignRow, 'campaignData' | 'campaignId'>): string {
  return (leadingAddress(unwrapCampaignData(row.campaignData).data) ?? row.campaignId).toLowerCase();
}

/** Pure: hash of the campaign configuration encoding (the Campaign `campaignEncodingHash` field). */
export function campaignEncodingHash(data: Hex): string {
  return keccak256(data);
}
