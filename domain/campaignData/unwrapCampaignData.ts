import { decodeAbiParameters, type Hex } from 'viem';
import { CROSS_CHAIN_LAYOUT, CROSS_CHAIN_SUFFIX } from './layouts.js';

/**
 * Pure: splits a cross-chain wrapped campaignData (`abi.encode(uint32 computeChainId, bytes inner) ++ 0xc0c0c0c0`,
 * docs/contracts.md#campaign-data-encodings) into its compute chain and inner data; other data is returned as is.
 */
export function unwrapCampaignData(data: Hex): { computeChainId: number | null; data: Hex } {
  // The suffix alone is lower-cased: campaign data runs to kilobytes and nearly none is wrapped.
  if (data.length < 2 + 64 * 3 + 8 || data.slice(-CROSS_CHAIN_SUFFIX.length).toLowerCase() !== CROSS_CHAIN_SUFFIX)
    return { computeChainId: null, data };
  try {
    const [computeChainId, inner] = decodeAbiParameters(CROSS_CHAIN_LAYOUT, data.slice(0, -8) as Hex);
    return { computeChainId, data: inner };
  } catch {
    return { computeChainId: null, data };
  }
}

/**
 * Pure: the opportunity identifier (mainParameter) of a campaign when its data starts with an
 * address word (ERC20 target token, CLAMM pool, ...: docs/contracts.md#campaign-data-encodings); null when it does not.
 */
export function leadingAddress(data: Hex): Hex | null {
  const word = data.slice(2, 66);
  if (word.length < 64 || !/^0{24}/.test(word) || /^0{64}$/.test(word)) return null;
  return `0x${word.slice(24)}` as Hex;
}
