import type { Hex } from 'viem';
import type { LogPosition } from '../../domain/logPosition.js';
import type { CampaignTuple } from './newCampaignData.js';
import { BaseError } from '../../internal/errors.js';

/** A NewCampaign log as a typed domain event (docs/contracts.md#distributioncreator-events). */
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

type RawLog<A> = {
  args: A;
  blockNumber: bigint | null;
  blockHash: Hex | null;
  transactionHash: Hex | null;
  logIndex: number | null;
};

export class DecodeError extends BaseError {
  override name = 'DecodeError';
}

/** Pure: the chain position of a viem log; pending logs (no block) are refused. */
export function positionOf(chainId: number, log: Omit<RawLog<unknown>, 'args'>, eventName: string): LogPosition {
  if (log.blockNumber === null || !log.blockHash || !log.transactionHash || log.logIndex === null) {
    throw new DecodeError(`${eventName} log without block position on chain ${chainId}`);
  }
  return {
    chainId,
    blockNumber: Number(log.blockNumber),
    blockHash: log.blockHash,
    txHash: log.transactionHash,
    logIndex: log.logIndex,
  };
}

/** Pure: a viem-decoded NewCampaign log → NewCampaignEvent. */
export function decodeNewCampaign(chainId: number, log: RawLog<{ campaign: CampaignTuple }>): NewCampaignEvent {
  const { campaignId, creator, rewardToken, amount, campaignType, startTimestamp, duration, campaignData } =
    log.args.campaign;
  return {
    ...positionOf(chainId, log, 'NewCampaign'),
    campaignId,
    creator,
    rewardToken,
    amount,
    campaignType,
    startTimestamp,
    duration,
    campaignData,
  };
}

/** A CampaignOverride log: the campaign's whole new configuration (docs/contracts.md#overrides-and-reallocations). */
export type CampaignOverrideEvent = LogPosition & {
  campaignId: Hex;
  campaignType: number;
  startTimestamp: number;
  duration: number;
  campaignData: Hex;
};

export function decodeCampaignOverride(
  chainId: number,
  log: RawLog<{ _campaignId: Hex; campaign: CampaignTuple }>,
): CampaignOverrideEvent {
  const { campaignType, startTimestamp, duration, campaignData } = log.args.campaign;
  return {
    ...positionOf(chainId, log, 'CampaignOverride'),
    campaignId: log.args._campaignId,
    campaignType,
    startTimestamp,
    duration,
    campaignData,
  };
}

/** A CampaignReallocation log (current layout: `from` in data, `to` indexed). */
export type CampaignReallocationEvent = LogPosition & { campaignId: Hex; from: Hex[]; to: Hex };

export function decodeCampaignReallocation(
  chainId: number,
  log: RawLog<{ _campaignId: Hex; from: readonly Hex[]; to: Hex }>,
): CampaignReallocationEvent {
  return {
    ...positionOf(chainId, log, 'CampaignReallocation'),
    campaignId: log.args._campaignId,
    from: [...log.args.from],
    to: log.args.to,
  };
}

/** A RewardTokenMinimumAmountUpdated log: the token's new minimum amount per hour (0 removes it from the whitelist). */
export type RewardTokenMinAmountEvent = LogPosition & { token: Hex; amount: bigint };

/** Pure: a viem-decoded RewardTokenMinimumAmountUpdated log → RewardTokenMinAmountEvent (token lower-case). */
export function decodeRewardTokenMinAmount(
  chainId: number,
  log: RawLog<{ token: Hex; amount: bigint }>,
): RewardTokenMinAmountEvent {
  return {
    ...positionOf(chainId, log, 'RewardTokenMinimumAmountUpdated'),
    token: log.args.token.toLowerCase() as Hex,
    amount: log.args.amount,
  };
}
