import { keccak256, stringToBytes } from 'viem';

/**
 * Stable numeric-hash id (the decimal form of the first 8 bytes of keccak256(key)), the shape of
 * the real service's internal ids (1 to 20 digits).
 */
export function numericHashId(key: string): string {
  return BigInt(keccak256(stringToBytes(key)).slice(0, 18)).toString();
}

/** Internal id of a campaign: one per (distribution chain, on-chain campaignId). */
export function campaignDbId(distributionChainId: number, campaignId: string): string {
  return numericHashId(`${distributionChainId}-${campaignId.toLowerCase()}`);
}

/** Internal id of a token: one per (chain, address). */
export function tokenDbId(chainId: number, address: string): string {
  return numericHashId(`${chainId}-${address.toLowerCase()}`);
}

/** Internal id of an opportunity: hash of its grouping key chainId + type + identifier. */
export function opportunityDbId(chainId: number, type: string, identifier: string): string {
  return numericHashId(`${chainId}-${type}-${identifier.toLowerCase()}`);
}
