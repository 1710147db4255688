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
