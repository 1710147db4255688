/** Public Chain record (the Chain schema, chainSchema in api/openapi/records.ts). */
/** A chains table row with its live figures (api reads it, toChainRecord serves it). */
export type ChainRow = {
  id: number;
  name: string;
  icon: string;
  explorers: { type: string; url: string }[];
  isTest: boolean;
  endOfDisputePeriod: number;
  lastClaimsOnchainFetchAt: Date | null;
  liveCampaigns: number;
};

export type ChainRecord = {
  id: number;
  name: string;
  icon: string;
  liveCampaigns: number;
  endOfDisputePeriod: number;
  explorers: { type: string; url: string; chainId: number }[];
  lastClaimsOnchainFetchTimestamp: string | null;
};

/** Public Token record (the Token schema, tokenSchema in api/openapi/records.ts). */
export type TokenRecord = {
  id: string;
  name: string | null;
  chainId: number;
  address: string;
  decimals: number;
  symbol: string;
  icon: string;
  verified: boolean;
  isNative: boolean;
  isTest: boolean;
  type: 'TOKEN' | 'PRETGE' | 'POINT';
  price: number | null;
  updatedAt: number | null;
  priceSource: string | null;
  /** Custom display symbol, when the operator set one. */
  displaySymbol?: string;
};

export function toChainRecord(row: ChainRow): ChainRecord {
  return {
    id: row.id,
    name: row.name,
    icon: row.icon,
    liveCampaigns: row.liveCampaigns,
    endOfDisputePeriod: row.endOfDisputePeriod,
    explorers: row.explorers.map((e) => ({ type: e.type, url: e.url, chainId: row.id })),
    lastClaimsOnchainFetchTimestamp: row.lastClaimsOnchainFetchAt
      ? String(Math.floor(row.lastClaimsOnchainFetchAt.getTime() / 1000))
      : null,
  };
}
