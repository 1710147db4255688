import { decodeAbiParameters, type Hex } from 'viem';
import { leadingAddress, unwrapCampaignData } from './unwrapCampaignData.js';
import { CLAMM_LAYOUT, ERC20_LAYOUT, ERC20_LEGACY_LAYOUT } from './layouts.js';

/** Campaign types whose data uses the ERC20 / token-holding layout (docs/contracts.md#campaign-data-encodings). */
const ERC20_FAMILY = new Set([1, 3, 16, 17, 18, 19, 20]);
/** Campaign types whose data uses the CLAMM pool layout. */
const CLAMM_FAMILY = new Set([2]);
/**
 * Campaign types whose data may name a market by its 32-byte id instead of an address (7 MORPHO: a
 * Morpho Blue market id, `abi.encode(bytes32 marketId)`; 13 UNISWAP_V4: a pool id, the PoolKey's hash,
 * as the data's first word; docs/api-behaviour.md#tvl-per-protocol).
 */
const MARKET_ID_TYPES = new Set([7, 13]);

/** The first 32-byte word of `data` (lower-case hex), unless it is empty or zero. */
function leadingWord(data: Hex): string | null {
  const word = data.slice(2, 66).toLowerCase();
  return word.length === 64 && !/^0{64}$/.test(word) ? `0x${word}` : null;
}

export type DecodedCampaignData = {
  /** Compute chain of a cross-chain wrapped campaign, else null (computed where distributed). */
  computeChainId: number | null;
  /** The opportunity identifier (pool, vault or token address, lower-case), when the data names one. */
  mainParameter: string | null;
  /**
   * On-chain id of the parent campaign of a sub-campaign, else null. Our convention (the real
   * contracts do not define one): an ERC20-family campaign whose `extraData` is exactly one 32-byte
   * word names its parent campaign on the same distribution chain.
   */
  parentCampaignId: string | null;
  /** Decoded fields, JSON-safe (integers as numbers, bytes as hex); `{ raw }` when not decodable. */
  params: Record<string, unknown>;
  layout: 'ERC20' | 'ERC20_LEGACY' | 'CLAMM' | 'RAW';
  /** Why a known type's data did not decode; the campaign is still stored and served. */
  decodeError?: string;
};

function jsonSafe(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return value.map(jsonSafe);
  if (typeof value === 'string' && /^0x[0-9a-fA-F]{40}$/.test(value)) return value.toLowerCase();
  return value;
}

function decodeWith(layout: readonly { name: string; type: string }[], data: Hex): Record<string, unknown> {
  const values = decodeAbiParameters(layout, data);
  return Object.fromEntries(layout.map((p, i) => [p.name, jsonSafe(values[i])]));
}

/**
 * Pure: decodes a campaign's `campaignData` per campaign type. ERC20-family data (7 fields, else the
 * older 5) names the target token; CLAMM data the pool; unknown types keep the raw bytes and use a
 * leading address word, if any, as identifier.
 */
export function decodeCampaignData(campaignType: number, campaignData: Hex): DecodedCampaignData {
  const { computeChainId, data } = unwrapCampaignData(campaignData);
  const raw = (decodeError?: string): DecodedCampaignData => ({
    computeChainId,
    mainParameter:
      leadingAddress(data)?.toLowerCase() ?? (MARKET_ID_TYPES.has(campaignType) ? leadingWord(data) : null),
    parentCampaignId: null,
    params: { raw: data },
    layout: 'RAW',
    ...(decodeError ? { decodeError } : {}),
  });
  const attempts: [DecodedCampaignData['layout'], readonly { name: string; type: string }[], string][] =
    ERC20_FAMILY.has(campaignType)
      ? [
          ['ERC20', ERC20_LAYOUT, 'targetToken'],
          ['ERC20_LEGACY', ERC20_LEGACY_LAYOUT, 'targetToken'],
        ]
      : CLAMM_FAMILY.has(campaignType)
        ? [['CLAMM', CLAMM_LAYOUT, 'pool']]
        : [];
  if (!attempts.length) return raw();
  let lastError = '';
  for (const [layout, params, key] of attempts) {
    try {
      const decoded = decodeWith(params, data);
      const extra = decoded['extraData'];
      const parentCampaignId =
        typeof extra === 'string' && /^0x[0-9a-fA-F]{64}$/.test(extra) ? extra.toLowerCase() : null;
      return { computeChainId, mainParameter: String(decoded[key]), parentCampaignId, params: decoded, layout };
    } catch (error) {
      lastError = error instanceof Error ? error.message.split('\n')[0]! : String(error);
    }
  }
  return raw(`type ${campaignType} data does not match its layout: ${lastError}`);
}
