import type { NativeAprStatus } from '../../domain/nativeAprStatus.js';

export { NATIVE_APR_STATUSES, type NativeAprStatus } from '../../domain/nativeAprStatus.js';

const DAY = 86_400;
/** Seconds in a (365-day) year: the APRs here are simple, rate × time, never compounded. */
export const SECONDS_PER_YEAR = 365 * DAY;
const WAD = 1e18;

/** How a native APR was read (docs/api-behaviour.md#native-apr). */
export type NativeAprMethod = 'MORPHO_BLUE_SUPPLY_RATE' | 'ERC4626_SHARE_PRICE' | 'NONE';

/** A native APR reading: `apr` (%) when `status` is `ok`, else null; `detail`: the reader's own words. */
export type NativeAprReading = {
  method: NativeAprMethod;
  status: NativeAprStatus;
  apr: number | null;
  detail?: string;
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

const DESCRIPTIONS: Record<NativeAprStatus, string> = {
  ok: '',
  'unsupported-target':
    "Unknown: the protocol's own yield is not read for this type of opportunity, so nativeApr 0 means unknown, not zero.",
  'read-failed': "Unknown: the protocol's reads failed, so nativeApr 0 means unknown, not zero.",
  'no-history':
    'Unknown: the chain has no stored block a day old to compare the share price with, so nativeApr 0 means unknown, not zero.',
  'not-computed': 'Unknown: not computed yet, so nativeApr 0 means unknown, not zero.',
};

const OK_DESCRIPTIONS: Record<NativeAprMethod, string> = {
  MORPHO_BLUE_SUPPLY_RATE:
    "Morpho Blue market supply APR: the IRM's borrow rate × utilization × (1 − fee), simple (not compounded) over a 365-day year.",
  ERC4626_SHARE_PRICE:
    'ERC4626 vault share-price growth over the last day (convertToAssets now vs a block ~24 h ago), simple (not compounded): growth × 365.',
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
