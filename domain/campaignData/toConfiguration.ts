import { keccak256, type Hex } from 'viem';
import { boundedMemo } from '../../internal/boundedMemo.js';
import { campaignTypeName } from '../campaignTypes.js';
import { campaignDbId, opportunityDbId } from '../ids.js';
import { decodeCampaignData, type DecodedCampaignData } from './decodeCampaignData.js';

/** The configuration fields a creation and an override both set. */
export type Configuration = {
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

/**
 * decodeCampaignData and the opportunity id, remembered per distinct input: the campaigns of a
 * program mostly repeat one data payload (same pool or token), and decoding plus hashing was most
 * of the indexer's CPU time per campaign (bench:peer). The decoded value is frozen: it is shared.
 */
const decodeRemembered = boundedMemo(
  (campaignType: number, campaignData: Hex): Readonly<DecodedCampaignData> =>
    deepFreeze(decodeCampaignData(campaignType, campaignData)),
  (campaignType, campaignData) => `${campaignType}:${campaignData}`,
);
const opportunityIdRemembered = boundedMemo(
  opportunityDbId,
  (chainId, type, identifier) => `${chainId}\n${type}\n${identifier}`,
);

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
export function toConfiguration(c: {
  distributionChainId: number;
  campaignId: string;
  campaignType: number;
  startTimestamp: number;
  duration: number;
  campaignData: Hex;
}): Configuration {
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
 * Pure: hash of the campaign configuration encoding (the Campaign `campaignEncodingHash` field),
 * remembered per distinct encoding like the decoding above: every document build hashes it, and
 * keccak over ~400 bytes in JavaScript was a fifth of the projector's CPU time (bench:indexer profile).
 */
export const campaignEncodingHash: (data: Hex) => string = boundedMemo(
  (data: Hex) => keccak256(data),
  (data) => data,
);
