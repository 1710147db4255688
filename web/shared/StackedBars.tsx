import { formatCompact } from './format.js';
import { DEFAULT_W, H, LABEL_W, PAD, stackedRows, stackSegments, type StackedSeries } from './stackLayout.js';
import { useWidth } from './useWidth.js';

export type { StackedSeries };

export type StackedBarsProps = {
  title: string;
  /** What the values are, shown under the title. */
  note?: string;
  testId: string;
  series: StackedSeries;
  /** Stack order, bottom first (and the legend's); keys of the series not named here follow. */
  keys: readonly string[];
  labelOf: (key: string) => string;
  colorOf: (key: string) => string;
  /** Column headings of the table alternative: the period, the key ("Chain"), the value ("USD"). */
  headings: { period: string; key: string; value: string };
  /** Axis labels and tooltips (compact); the table uses `formatExact`. */
  formatValue?: (v: number) => string;
  formatExact?: (v: number) => string;
  loading?: boolean;
  /** Shown instead of the chart when there are no periods. */
  empty?: string;
};

/**
 * A stacked bar chart of values per period (oldest left) in SVG, drawn 1:1 so its text stays
 * readable on a phone; each segment has a tooltip, the legend gives each key's total, and a table
 * lists every figure (the chart's accessible alternative).
 */
export function StackedBars({
  title,
  note,
  testId,
  series,
  keys,
  labelOf,
  colorOf,
  headings,
  formatValue = formatCompact,
  formatExact = formatCompact,
  loading = false,
  empty = 'No data yet',
}: StackedBarsProps) {
  const rows = stackedRows(series, keys);
  const [ref, W] = useWidth(rows.length > 0, DEFAULT_W);
  const { periods, top, segments } = stackSegments(series, keys, W);
  const slot = (W - PAD.left - PAD.right) / Math.max(1, periods.length);
  const every = Math.max(1, Math.ceil(LABEL_W / slot));
  const keyTotals = new Map<string, number>();
  for (const r of rows) for (const { key, value } of r.items) keyTotals.set(key, (keyTotals.get(key) ?? 0) + value);
  const legend = [...keys.filter((k) => keyTotals.has(k)), ...[...keyTotals.keys()].filter((k) => !keys.includes(k))];
  const grand = rows.reduce((s, r) => s + r.total, 0);
  return (
    <figure class="stacked-bars" data-testid={testId} data-periods={periods.length}>
      <figcaption>
        {title}
        {note && <small class="chart-note">{note}</small>}
      </figcaption>
      {rows.length === 0 ? (
        <p class="muted">{loading ? 'Loading…' : empty}</p>
      ) : (
        <>
          <svg
            ref={ref}
            viewBox={`0 0 ${W} ${H}`}
            height={H}
            role="img"
            aria-label={`${title}: ${periods.length} ${periods.length === 1 ? 'month' : 'months'} from ${periods[0]} to ${periods[periods.length - 1]}, ${formatExact(grand)} in all; every figure is in the table below`}
          >
            <line class="axis-line" x1={PAD.left} y1={H - PAD.bottom} x2={W - PAD.right} y2={H - PAD.bottom} />
            <text x={PAD.left - 6} y={PAD.top + 10} text-anchor="end">
              {formatValue(top)}
            </text>
            <text x={PAD.left - 6} y={H - PAD.bottom} text-anchor="end">
              {formatValue(0)}
            </text>
            {periods.map((p, i) =>
              i % every === 0 ? (
                <text key={p} class="period" x={PAD.left + slot * (i + 0.5)} y={H - 10} text-anchor="middle">
                  {p}
                </text>
              ) : null,
            )}
            {segments.map((s) => (
              <rect
                key={`${s.period}:${s.key}`}
                class="segment"
                x={s.x}
                y={s.y}
                width={s.w}
                height={Math.max(s.h, 0.5)}
                fill={colorOf(s.key)}
                data-period={s.period}
                data-key={s.key}
                data-value={s.value}
              >
                <title>{`${s.period} · ${labelOf(s.key)}: ${formatExact(s.value)}`}</title>
              </rect>
            ))}
          </svg>
          <ul class="legend" data-testid={`${testId}-legend`}>
            {legend.map((key) => (
              <li key={key} data-key={key} data-total={keyTotals.get(key)}>
                <span class="swatch" style={{ background: colorOf(key) }} aria-hidden="true" />
                {labelOf(key)} <span class="muted">{formatExact(keyTotals.get(key)!)}</span>
              </li>
            ))}
          </ul>
          <details class="raw-data">
            <summary>Every figure as a table</summary>
            <div class="table-scroll">
              <table class="stacked-table" data-testid={`${testId}-table`}>
                <caption class="visually-hidden">{title}</caption>
                <thead>
                  <tr>
                    <th scope="col">{headings.period}</th>
                    <th scope="col">{headings.key}</th>
                    <th scope="col" class="num">
                      {headings.value}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {rows.flatMap((r) => [
                    ...r.items.map(({ key, value }) => (
                      <tr key={`${r.period}:${key}`} data-period={r.period} data-key={key} data-value={value}>
                        <td>{r.period}</td>
                        <td>{labelOf(key)}</td>
                        <td class="num">{formatExact(value)}</td>
                      </tr>
                    )),
                    <tr key={`${r.period}:total`} class="subtotal" data-period={r.period} data-total={r.total}>
                      <th scope="row">{r.period}</th>
                      <td>all</td>
                      <td class="num">{formatExact(r.total)}</td>
                    </tr>,
                  ])}
                </tbody>
              </table>
            </div>
          </details>
        </>
      )}
    </figure>
  );
}
