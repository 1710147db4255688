/**
 * What a pool or market opportunity stands on, as the metrics job reads it from the protocol's
 * contracts (#42): the opportunity_underlying row (sql/migrations/2026_12_09_20_opportunity_underlying.sql).
 */
export type OpportunityUnderlying = {
  /**
   * Lower-case token addresses in the protocol's order: token0, token1 (Uniswap V3 pool), currency0,
   * currency1 (V4 pool; the zero address is the native token), loan, collateral (Morpho Blue market).
   */
  tokens: string[];
  /** Pool fee in hundredths of a bip (3000 = 0.3%; V4_DYNAMIC_FEE for a dynamic fee); null for a market. */
  fee: number | null;
  /** Morpho Blue LLTV, WAD, as a decimal string; null for a pool. */
  lltv: string | null;
  /** What a block explorer can show: the pool (V3), the PoolManager (V4), the Morpho Blue contract (market). */
  contract: string;
  /** A pool's tick spacing (V3 `tickSpacing()`, V4 PoolKey); null for a market or when unread. */
  tickSpacing?: number | null;
  /** A V4 pool's hooks contract (lower-case; the zero address for none); null for a V3 pool or a market. */
  hooks?: string | null;
};

/** Uniswap V4 `LPFeeLibrary.DYNAMIC_FEE_FLAG`: the pool's hook sets its fee swap by swap. */
export const V4_DYNAMIC_FEE = 0x800000;

/** Pure: a pool fee for a name: 3000 → "0.3%", 500 → "0.05%"; a dynamic V4 fee → "dynamic fee". */
export function formatPoolFee(fee: number): string {
  if (fee === V4_DYNAMIC_FEE) return 'dynamic fee';
  return `${Number((fee / 10_000).toFixed(4))}%`;
}

/** Pure: a WAD LLTV for a name: "860000000000000000" → "86%", "945000000000000000" → "94.5%". */
export function formatLltv(lltv: string): string {
  return `${Number(BigInt(lltv) / 10n ** 12n) / 10_000}%`;
}
