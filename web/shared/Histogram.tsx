import { axisTicks } from './axisTicks.js';
import { formatCompact } from './format.js';
import { plural } from './plural.js';

export type HistogramBin = { min: number; max: number; count: number };

export type HistogramProps = {
  title: string;
  bins: HistogramBin[];
  /** Formats a bin edge for labels (e.g. "$1M", "20%"). */
  formatEdge?: (value: number) => string;
  /** Clicking (or pressing Enter/Space on) a bar; bars with no opportunity are disabled. */
  onSelect?: (index: number) => void;
  testId: string;
  /** The bins are not known yet (shows "…" rather than "No data"). */
  loading?: boolean;
};

/** Pure: a bin's label; the first bin is open below and the last open above (API bins). */
export function binLabel(bins: HistogramBin[], index: number, format: (v: number) => string): string {
  const bin = bins[index]!;
  if (bins.length === 1) return 'all';
  if (index === 0) return `< ${format(bin.max)}`;
  if (index === bins.length - 1) return `≥ ${format(bin.min)}`;
  return `${format(bin.min)}–${format(bin.max)}`;
}

/**
 * A bar chart of distribution bins made of buttons (keyboard and screen-reader usable); each bar's
 * height is its share of the largest count.
 */
export function Histogram({
  title,
  bins,
  formatEdge = formatCompact,
  onSelect,
  testId,
  loading = false,
}: HistogramProps) {
  const top = Math.max(1, ...bins.map((b) => b.count));
  return (
    <figure class="histogram" data-testid={testId}>
      <figcaption>{title}</figcaption>
      {bins.length === 0 ? (
        <p class="muted">{loading ? '…' : 'No data'}</p>
      ) : (
        // biome-ignore lint/a11y/useSemanticElements: a group of toggle buttons, not form fields: a <fieldset> would need a <legend> the figure's caption already gives
        <div class="bars" role="group" aria-label={title}>
          {bins.map((bin, i) => {
            const label = binLabel(bins, i, formatEdge);
            return (
              <button
                type="button"
                class="bar"
                key={i}
                disabled={bin.count === 0 || !onSelect}
                data-count={bin.count}
                aria-label={`${label}: ${plural(bin.count, 'opportunity', 'opportunities')}`}
                title={`${label}: ${bin.count}`}
                onClick={() => onSelect?.(i)}
              >
                <span class="fill" style={{ height: `${(bin.count / top) * 100}%` }} />
                <span class="count">{bin.count}</span>
              </button>
            );
          })}
        </div>
      )}
      {bins.length > 1 && (
        <div class="axis-ticks" data-testid={`${testId}-axis`} aria-hidden="true">
          {axisTicks(bins).map((t) => (
            <span class="tick" key={t.at} style={{ left: `${t.at * 100}%` }}>
              {formatEdge(t.value)}
            </span>
          ))}
        </div>
      )}
      {bins.length > 0 && (
        <div class="axis">
          <span>{binLabel(bins, 0, formatEdge)}</span>
          <span class="axis-title">opportunities per range</span>
          <span>{binLabel(bins, bins.length - 1, formatEdge)}</span>
        </div>
      )}
    </figure>
  );
}
