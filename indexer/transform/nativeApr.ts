import type { NativeAprStatus } from '../../domain/nativeAprStatus.js';
import type { StoredPrice } from '../../domain/prices.js';

export { NATIVE_APR_STATUSES, type NativeAprStatus } from '../../domain/nativeAprStatus.js';

const DAY = 86_400;
/** Seconds in a (365-day) year: the APRs here are simple, rate × time, never compounded. */
export const SECONDS_PER_YEAR = 365 * DAY;
const WAD = 1e18;

/** How a native APR was read (docs/api-behaviour.md#native-apr). */
export type NativeAprMethod = 'MORPHO_BLUE_SUPPLY_RATE' | 'ERC4626_SHARE_PRICE' | 'UNISWAP_V3_FEES' | 'NONE';

/**
 * What a pool's liquidity providers earned over `elapsedSeconds`, per token in base units (strings), as
 * read, before prices: its APR needs prices and the TVL in USD, which the metrics job knows only after
 * pricing the TVL readings (pricedNativeApr).
 */
export type UnpricedFees = {
  elapsedSeconds: number;
  tokens: { tokenId: string; amount: string; decimals: number }[];
};

/**
 * A native APR reading: `apr` (%) when `status` is `ok`, else null; `detail`: the reader's own words;
 * `fees`: a fee reading not priced yet (`ok` with a null `apr` until pricedNativeApr turns it into one).
 */
export type NativeAprReading = {
  method: NativeAprMethod;
  status: NativeAprStatus;
  apr: number | null;
  detail?: string;
  fees?: UnpricedFees;
};

/** No reading stored for the opportunity (its chain's reads failed): unknown. */
export const NO_NATIVE_APR: NativeAprReading = { method: 'NONE', status: 'read-failed', apr: null };

/**
 * Pure: a Morpho Blue market's supply APR (%), simple (not compounded): the IRM's per-second borrow
 * rate (WAD) × utilization (totalBorrowAssets / totalSupplyAssets) × (1 − fee, WAD) × seconds per
 * 365-day year × 100, as Morpho accrues it (borrowers' interest shared by the suppliers less the fee).
 * An empty market (no supply) yields 0.
 */
export function morphoSupplyApr(
  borrowRatePerSecond: bigint,
  totalSupplyAssets: bigint,
  totalBorrowAssets: bigint,
  fee: bigint,
): number {
  if (totalSupplyAssets <= 0n) return 0;
  const utilization = Number(totalBorrowAssets) / Number(totalSupplyAssets);
  return (Number(borrowRatePerSecond) / WAD) * utilization * (1 - Number(fee) / WAD) * SECONDS_PER_YEAR * 100;
}

/**
 * Pure: an ERC4626 vault's APR (%) from its share price (`convertToAssets(10^decimals)`) `elapsedSeconds`
 * apart (about a day): growth = after / before − 1, annualized simply, growth × year / elapsed × 100
 * (growth × 365 × 100 over exactly one day). Null when it cannot be said (no price before, no time).
 */
export function shareGrowthApr(assetsBefore: bigint, assetsAfter: bigint, elapsedSeconds: number): number | null {
  if (assetsBefore <= 0n || elapsedSeconds <= 0) return null;
  const growth = Number(assetsAfter - assetsBefore) / Number(assetsBefore);
  return ((growth * SECONDS_PER_YEAR) / elapsedSeconds) * 100;
}

const Q128 = 1n << 128n;
const MAX_UINT256 = (1n << 256n) - 1n;

/**
 * Pure: a Uniswap V3 pool's LP fees in one token between two reads of its `feeGrowthGlobalX128` (fees per
 * unit of in-range liquidity, Q128.128): (Δ mod 2^256) × liquidity >> 128, the pool's own arithmetic (the
 * growth may wrap, as the pool's does). The in-range liquidity now stands for the window's: exact when no
 * position entered or left range or changed since, an approximation otherwise. feeGrowthGlobal already
 * excludes the protocol fee: this is what LPs earned.
 */
export function uniswapV3FeesEarned(growthBefore: bigint, growthAfter: bigint, liquidity: bigint): bigint {
  return (((growthAfter - growthBefore) & MAX_UINT256) * liquidity) / Q128;
}

/**
 * Pure: the APR of a fee reading once prices are known: fees in USD (each token's amount × its fresh
 * price) / `tvlUsd` × (365 days / elapsed) × 100, simple; over exactly a day, fees / TVL × 365 × 100. A
 * token without a fresh price, or an unknown or zero TVL, gives an unknown APR, status `unpriced` (never 0).
 * A reading without fees (or not `ok`) is returned as it is.
 */
export function pricedNativeApr(
  reading: NativeAprReading,
  prices: ReadonlyMap<string, StoredPrice>,
  tvlUsd: number | null,
): NativeAprReading {
  const { fees } = reading;
  if (!fees || reading.status !== 'ok') return reading;
  const unpriced = fees.tokens.filter((t) => {
    const p = prices.get(t.tokenId);
    return !p || p.stale;
  });
  const unknown = (detail: string): NativeAprReading => ({ ...reading, status: 'unpriced', apr: null, detail });
  if (unpriced.length) return unknown(`no fresh price for ${unpriced.map((t) => t.tokenId).join(', ')}`);
  if (tvlUsd === null) return unknown('the TVL is unknown');
  if (!(tvlUsd > 0)) return unknown('the TVL is 0');
  if (fees.elapsedSeconds <= 0) return { ...reading, status: 'read-failed', apr: null, detail: 'no time elapsed' };
  const feesUsd = fees.tokens.reduce(
    (sum, t) => sum + (Number(t.amount) / 10 ** t.decimals) * prices.get(t.tokenId)!.price,
    0,
  );
  return { ...reading, apr: ((feesUsd / tvlUsd) * SECONDS_PER_YEAR * 100) / fees.elapsedSeconds };
}

const DESCRIPTIONS: Record<NativeAprStatus, string> = {
  ok: '',
  'unsupported-target':
    "Unknown: the protocol's own yield is not read for this type of opportunity, so nativeApr 0 means unknown, not zero.",
  'read-failed': "Unknown: the protocol's reads failed, so nativeApr 0 means unknown, not zero.",
  'no-history':
    'Unknown: there is nothing a day old to compare with (no stored block of the chain a day old, or the vault or pool did not exist then), so nativeApr 0 means unknown, not zero.',
  unpriced:
    "Unknown: the pool's fees cannot be valued against its TVL (a token without a fresh price, or an unknown or zero TVL), so nativeApr 0 means unknown, not zero.",
  'not-computed': 'Unknown: not computed yet, so nativeApr 0 means unknown, not zero.',
};

const OK_DESCRIPTIONS: Record<NativeAprMethod, string> = {
  MORPHO_BLUE_SUPPLY_RATE:
    "Morpho Blue market supply APR: the IRM's borrow rate × utilization × (1 − fee), simple (not compounded) over a 365-day year.",
  ERC4626_SHARE_PRICE:
    'ERC4626 vault share-price growth over the last day (convertToAssets now vs a block ~24 h ago), simple (not compounded): growth × 365.',
  UNISWAP_V3_FEES:
    "Uniswap V3 pool liquidity providers' fees over the last day (feeGrowthGlobal growth since a block ~24 h ago × the in-range liquidity now, net of the protocol fee) in USD / the pool's TVL, simple (not compounded): × 365.",
  NONE: '',
};

/** Pure: `nativeApr` (a number, 0 when unknown) and `nativeAprRecord` of a reading. */
export function nativeAprRecordOf(reading: NativeAprReading, timestamp: string) {
  const known = reading.status === 'ok' && reading.apr !== null && Number.isFinite(reading.apr);
  // An `ok` reading without a number is a failed one: never served as a known 0.
  const status: NativeAprStatus = known ? 'ok' : reading.status === 'ok' ? 'read-failed' : reading.status;
  const value = known ? reading.apr! : 0;
  return {
    nativeApr: value,
    record: {
      title: 'Native APR',
      description: known ? OK_DESCRIPTIONS[reading.method] : DESCRIPTIONS[status],
      value,
      status,
      timestamp,
    },
  };
}
