import { formatUnits, zeroAddress } from 'viem';
import { decodeCampaignData } from '../../../domain/campaignData/decodeCampaignData.js';
import { campaignTypeName } from '../../../domain/campaignTypes.js';
import { computeCampaignId } from '../../../domain/campaignId.js';
import type { CampaignTuple } from './decodeCreateCampaignArgs.js';

/** Reward token metadata (tokens table, else read from the chain; null fields when neither knows it). */
export type RewardTokenInfo = { address: string; symbol: string | null; name: string | null; decimals: number | null };

/** One campaign of a decoded creation call, human-readable (response item of decode/args/createCampaign). */
export type DescribedCampaign = {
  campaignId: string;
  /** The campaignId passed in the call (ignored by the contract, which computes `campaignId`). */
  inputCampaignId: string;
  /** True when the call passes creator 0x0: the contract uses msg.sender, so `campaignId` (hashed with 0x0) will differ. */
  creatorIsZero: boolean;
  creator: string;
  campaignType: number;
  campaignTypeName: string;
  rewardToken: RewardTokenInfo;
  amount: string;
  amountFormatted: string | null;
  startTimestamp: number;
  startDate: string;
  endTimestamp: number;
  endDate: string;
  duration: number;
  distributionChainId: number;
  computeChainId: number;
  campaignData: string;
  campaignDataLayout: string;
  campaignDataDecoded: Record<string, unknown>;
  mainParameter: string | null;
};

const iso = (seconds: number): string => new Date(seconds * 1000).toISOString();

/**
 * Pure: a decoded CampaignParameters tuple → its human-readable description, with the on-chain
 * campaignId it gets on `distributionChainId` (docs/contracts.md#campaign-id; the creator is hashed as given).
 * @returns the description, or `decodeError` when a known type's campaignData does not match its layout.
 */
export function describeCampaign(
  t: CampaignTuple,
  distributionChainId: number,
  token: RewardTokenInfo,
): { campaign: DescribedCampaign; decodeError?: string } {
  const decoded = decodeCampaignData(t.campaignType, t.campaignData);
  const end = t.startTimestamp + t.duration;
  const campaign: DescribedCampaign = {
    campaignId: computeCampaignId({
      chainId: distributionChainId,
      creator: t.creator,
      rewardToken: t.rewardToken,
      campaignType: t.campaignType,
      startTimestamp: t.startTimestamp,
      duration: t.duration,
      campaignData: t.campaignData,
    }),
    inputCampaignId: t.campaignId,
    creatorIsZero: t.creator.toLowerCase() === zeroAddress,
    creator: t.creator,
    campaignType: t.campaignType,
    campaignTypeName: campaignTypeName(t.campaignType),
    rewardToken: token,
    amount: t.amount.toString(),
    amountFormatted: token.decimals === null ? null : formatUnits(t.amount, token.decimals),
    startTimestamp: t.startTimestamp,
    startDate: iso(t.startTimestamp),
    endTimestamp: end,
    endDate: iso(end),
    duration: t.duration,
    distributionChainId,
    computeChainId: decoded.computeChainId ?? distributionChainId,
    campaignData: t.campaignData,
    campaignDataLayout: decoded.layout,
    campaignDataDecoded: decoded.params,
    mainParameter: decoded.mainParameter,
  };
  return decoded.decodeError ? { campaign, decodeError: decoded.decodeError } : { campaign };
}
