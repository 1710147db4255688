import { keccak256, stringToBytes } from 'viem';

/**
 * Stable numeric-hash id (the decimal form of the first 8 bytes of keccak256(key)), the shape of
 * the real service's internal ids (1 to 20 digits).
 */
export function numericHashId(key: string): string {
  const hash = keccak256(stringToBytes(key), 'bytes');
  return new DataView(hash.buffer, hash.byteOffset, 8).getBigUint64(0).toString();
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

/** A campaign as a path names it: `distributionChainId-campaignId` (any case), else the internal id. */
export type CampaignPathId =
  | { kind: 'composite'; distributionChainId: number; campaignId: string }
  | { kind: 'internal'; id: string };

/** Pure: reads a campaign path id (the composite form's on-chain id lower-cased). */
export function parseCampaignPathId(id: string): CampaignPathId {
  const composite = /^(\d+)-(0x[0-9a-fA-F]{64})$/.exec(id);
  return composite
    ? { kind: 'composite', distributionChainId: Number(composite[1]), campaignId: composite[2]!.toLowerCase() }
    : { kind: 'internal', id };
}
