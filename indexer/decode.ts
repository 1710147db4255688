import { decodeAbiParameters, type Hex } from 'viem';
import { CROSS_CHAIN_LAYOUT, CROSS_CHAIN_SUFFIX } from '../domain/campaignData/layouts.js';
import type { CampaignTuple } from './newCampaignData.js';

/** Where a log sits on its chain. */
export type LogPosition = { chainId: number; blockNumber: number; blockHash: Hex; txHash: Hex; logIndex: number };

/** A NewCampaign log as a typed domain event (chain-facts §1.1, §1.6). */
export type NewCampaignEvent = LogPosition & {
  campaignId: Hex;
  creator: Hex;
  rewardToken: Hex;
  /** Net of creation fees, as emitted. */
  amount: bigint;
  campaignType: number;
  startTimestamp: number;
  duration: number;
  campaignData: Hex;
};

type RawLog<A> = { args: A; blockNumber: bigint | null; blockHash: Hex | null; transactionHash: Hex | null; logIndex: number | null };

export class DecodeError extends Error {
  override name = 'DecodeError';
}

/** Pure: the chain position of a viem log; pending logs (no block) are refused. */
export function positionOf(chainId: number, log: Omit<RawLog<unknown>, 'args'>, eventName: string): LogPosition {
  if (log.blockNumber === null || !log.blockHash || !log.transactionHash || log.logIndex === null) {
    throw new DecodeError(`${eventName} log without block position on chain ${chainId}`);
  }
  return { chainId, blockNumber: Number(log.blockNumber), blockHash: log.blockHash, txHash: log.transactionHash, logIndex: log.logIndex };
}

/** Pure: a viem-decoded NewCampaign log → NewCampaignEvent. */
export function decodeNewCampaign(chainId: number, log: RawLog<{ campaign: CampaignTuple }>): NewCampaignEvent {
  const { campaignId, creator, rewardToken, amount, campaignType, startTimestamp, duration, campaignData } = log.args.campaign;
  return { ...positionOf(chainId, log, 'NewCampaign'), campaignId, creator, rewardToken, amount, campaignType, startTimestamp, duration, campaignData };
}

/** A CampaignOverride log: the campaign's whole new configuration (chain-facts §1.8). */
export type CampaignOverrideEvent = LogPosition & { campaignId: Hex; campaignType: number; startTimestamp: number; duration: number; campaignData: Hex };

export function decodeCampaignOverride(chainId: number, log: RawLog<{ _campaignId: Hex; campaign: CampaignTuple }>): CampaignOverrideEvent {
  const { campaignType, startTimestamp, duration, campaignData } = log.args.campaign;
  return { ...positionOf(chainId, log, 'CampaignOverride'), campaignId: log.args._campaignId, campaignType, startTimestamp, duration, campaignData };
}

/** A CampaignReallocation log (current layout: `from` in data, `to` indexed). */
export type CampaignReallocationEvent = LogPosition & { campaignId: Hex; from: Hex[]; to: Hex };

export function decodeCampaignReallocation(chainId: number, log: RawLog<{ _campaignId: Hex; from: readonly Hex[]; to: Hex }>): CampaignReallocationEvent {
  return { ...positionOf(chainId, log, 'CampaignReallocation'), campaignId: log.args._campaignId, from: [...log.args.from], to: log.args.to };
}

/**
 * Pure: splits a cross-chain wrapped campaignData (`abi.encode(uint32 computeChainId, bytes inner) ++ 0xc0c0c0c0`,
 * chain-facts §1.10) into its compute chain and inner data; other data is returned as is.
 */
export function unwrapCampaignData(data: Hex): { computeChainId: number | null; data: Hex } {
  // The suffix alone is lower-cased: campaign data runs to kilobytes and nearly none is wrapped.
  if (data.length < 2 + 64 * 3 + 8 || data.slice(-CROSS_CHAIN_SUFFIX.length).toLowerCase() !== CROSS_CHAIN_SUFFIX) return { computeChainId: null, data };
  try {
    const [computeChainId, inner] = decodeAbiParameters(CROSS_CHAIN_LAYOUT, data.slice(0, -8) as Hex);
    return { computeChainId, data: inner };
  } catch {
    return { computeChainId: null, data };
  }
}

/**
 * Pure: the opportunity identifier (mainParameter) of a campaign when its data starts with an
 * address word (ERC20 target token, CLAMM pool, ... chain-facts §1.10); null when it does not.
 */
export function leadingAddress(data: Hex): Hex | null {
  const word = data.slice(2, 66);
  if (word.length < 64 || !/^0{24}/.test(word) || /^0{64}$/.test(word)) return null;
  return `0x${word.slice(24)}` as Hex;
}
