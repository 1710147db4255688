/** Pure encoders for `CampaignParameters.campaignData` (docs/contracts.md); the campaignId derivation is domain/campaignId.ts. */
import { encodeAbiParameters } from 'viem';
import type { Address, Hex } from 'viem';
import { CLAMM_LAYOUT, ERC20_LAYOUT } from '../domain/campaignData/layouts.js';

export type EncodeErc20CampaignDataParams = {
  targetToken: Address;
  whitelist?: readonly Address[];
  blacklist?: readonly Address[];
  url?: string;
  forwarders?: readonly Hex[];
  hooks?: readonly Hex[];
  extraData?: Hex;
};

/**
 * Encodes type-1 (ERC20 / token holding) campaign data, current 7-field layout:
 * `abi.encode(address targetToken, address[] whitelist, address[] blacklist, string url, bytes[] forwarders,
 * bytes[] hooks, bytes extraData)`. With only the target set it is 416 bytes.
 */
export function encodeErc20CampaignData(params: EncodeErc20CampaignDataParams): Hex {
  return encodeAbiParameters(ERC20_LAYOUT, [
    params.targetToken,
    params.whitelist ?? [],
    params.blacklist ?? [],
    params.url ?? '',
    params.forwarders ?? [],
    params.hooks ?? [],
    params.extraData ?? '0x',
  ]);
}

export type EncodeClammCampaignDataParams = {
  pool: Address;
  /** Weights in base 10 000 (e.g. 2000 / 4000 / 4000); they should sum to 10 000. */
  weightFees: number;
  weightToken0: number;
  weightToken1: number;
  isOutOfRangeIncentivized: boolean;
  boostingAddress?: Address;
  boostedReward?: number;
  whitelist?: readonly Address[];
  blacklist?: readonly Address[];
  url?: string;
  forwarders?: readonly Hex[];
  hooks?: readonly Hex[];
};

/**
 * Encodes type-2 (CLAMM pool) campaign data. Layout (our reading of the "current" CLAMM layout in
 * docs/contracts.md#campaign-data-encodings, with the dynamic tail types inferred, not confirmed):
 * `abi.encode(address pool, uint32 weightFees, uint32 weightToken0, uint32 weightToken1,
 * uint32 isOutOfRangeIncentivized (0|1), address boostingAddress, uint32 boostedReward,
 * address[] whitelist, address[] blacklist, string url, bytes[] forwarders, bytes[] hooks)`:
 * 7 static head words then 5 dynamic fields at offsets 0x180…0x200 when all are empty (544 bytes).
 */
export function encodeClammCampaignData(params: EncodeClammCampaignDataParams): Hex {
  return encodeAbiParameters(CLAMM_LAYOUT, [
    params.pool,
    params.weightFees,
    params.weightToken0,
    params.weightToken1,
    params.isOutOfRangeIncentivized ? 1 : 0,
    params.boostingAddress ?? '0x0000000000000000000000000000000000000000',
    params.boostedReward ?? 0,
    params.whitelist ?? [],
    params.blacklist ?? [],
    params.url ?? '',
    params.forwarders ?? [],
    params.hooks ?? [],
  ]);
}
