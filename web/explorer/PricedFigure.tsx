import { unknownTvlReason } from './tvlText.js';
export type PricedFigureProps = {
  value: number;
  format: (value: number) => string;
  /** The record's `unpricedRewardTokens`: reward tokens its figures count as 0 for want of a price. */
  unpriced: readonly string[] | undefined;
};

/**
 * An APR or daily-rewards figure that says so when it leaves reward tokens out for want of a price:
 * "no price" when nothing else is counted (never a 0 % or $0 that reads as "nothing"), else the
 * counted part followed by "+ no price".
 */
export function PricedFigure({ value, format, unpriced }: PricedFigureProps) {
  if (!unpriced?.length) return <>{format(value)}</>;
  const title = `Leaves out ${unpriced.length === 1 ? 'a reward token' : `${unpriced.length} reward tokens`} without a price: ${unpriced.join(', ')}`;
  return (
    <span class="unpriced" data-testid="unpriced" title={title}>
      {value > 0 ? `${format(value)} + no price` : 'no price'}
    </span>
  );
}

export type TvlFigureProps = { value: number; status: string | undefined; format: (value: number) => string };

/** A TVL (or an APR that divides by it) that says "unknown" and why when the TVL could not be known (tvlText.ts). */
export function TvlFigure({ value, status, format }: TvlFigureProps) {
  const reason = unknownTvlReason(status);
  if (reason === null) return <>{format(value)}</>;
  return (
    <span class="unpriced" data-testid="unknown-tvl" title={`TVL unknown: ${reason}`}>
      unknown
    </span>
  );
}

export type NativeAprFigureProps = {
  value: number;
  record: { status?: string; description?: string } | undefined;
  format: (value: number) => string;
};

/**
 * An opportunity's native APR (the protocol's own yield): the figure when its status is `ok` (a known 0
 * included), else "unknown" with the record's description as the reason: the API serves an unknown
 * native APR as 0, which must not read as "no yield" (docs/api-behaviour.md#native-apr).
 */
export function NativeAprFigure({ value, record, format }: NativeAprFigureProps) {
  if (record?.status === undefined || record.status === 'ok') return <>{format(value)}</>;
  return (
    <span class="unpriced" data-testid="unknown-native-apr" title={record.description || record.status}>
      unknown
    </span>
  );
}
