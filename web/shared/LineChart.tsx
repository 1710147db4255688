import { formatCompact } from './format.js';
import { timeAxisLabels } from './timeAxis.js';
import { useWidth } from './useWidth.js';

export type Point = { t: number; v: number };

export type LineChartProps = {
  title: string;
  points: Point[];
  formatValue?: (v: number) => string;
  testId: string;
  /** What the values are, shown under the title. */
  note?: string;
  /** A moment to mark with a vertical line (e.g. the first campaign's start), Unix seconds; drawn only inside the data's time span. */
  marker?: { t: number; label: string };
  /** The data is not known yet. */
  loading?: boolean;
  /** Shown instead of the chart when there are no points (default "No history yet"). */
  empty?: string;
};

const H = 200;
/** Width drawn before the chart is measured (and in environments without layout). */
const DEFAULT_W = 600;
const PAD = { left: 64, right: 12, top: 14, bottom: 30 };

/**
 * Pure: data → SVG coordinates inside the padded box of a `w` × H drawing. The time axis spans the
 * data only (its first to its last point): a chart never opens on an empty stretch before its
 * history starts. A single point sits in the middle.
 */
export function scalePoints(points: Point[], w = DEFAULT_W): { x: number; y: number }[] {
  if (!points.length) return [];
  const { t0, t1 } = timeSpan(points);
  const vs = points.map((p) => p.v);
  const [v0, v1] = [Math.min(0, ...vs), Math.max(...vs)];
  const y = (v: number) => (v1 === v0 ? H / 2 : H - PAD.bottom - ((v - v0) / (v1 - v0)) * (H - PAD.top - PAD.bottom));
  return points.map((p) => ({ x: timeX(p.t, t0, t1, w), y: y(p.v) }));
}

/** Pure: the first and last times of the points (the time axis). */
export function timeSpan(points: Point[]): { t0: number; t1: number } {
  const ts = points.map((p) => p.t);
  return { t0: Math.min(...ts), t1: Math.max(...ts) };
}

function timeX(t: number, t0: number, t1: number, w: number): number {
  return t1 === t0 ? (PAD.left + w - PAD.right) / 2 : PAD.left + ((t - t0) / (t1 - t0)) * (w - PAD.left - PAD.right);
}

/** A small SVG line chart of a time series (oldest left), its time axis from its first to its last point. */
export function LineChart({
  title,
  points,
  formatValue = formatCompact,
  testId,
  note,
  marker,
  loading = false,
  empty = 'No history yet',
}: LineChartProps) {
  const sorted = [...points].sort((a, b) => a.t - b.t);
  const [ref, W] = useWidth(sorted.length > 0, DEFAULT_W);
  const xy = scalePoints(sorted, W);
  const span = sorted.length ? timeSpan(sorted) : null;
  const markerX =
    span && marker && marker.t >= span.t0 && marker.t <= span.t1 ? timeX(marker.t, span.t0, span.t1, W) : null;
  const values = sorted.map((p) => p.v);
  const labels = span ? timeAxisLabels(span.t0, span.t1) : null;
  return (
    <figure
      class="line-chart"
      data-testid={testId}
      data-points={sorted.length}
      data-axis-from={span?.t0}
      data-axis-to={span?.t1}
    >
      <figcaption>
        {title}
        {note && <small class="chart-note">{note}</small>}
      </figcaption>
      {sorted.length === 0 ? (
        <p class="muted">{loading ? 'Loading…' : empty}</p>
      ) : (
        <svg
          ref={ref}
          viewBox={`0 0 ${W} ${H}`}
          height={H}
          role="img"
          aria-label={`${title}: ${sorted.length} points from ${labels!.point(span!.t0)} to ${labels!.point(span!.t1)}, last ${formatValue(values[values.length - 1]!)}`}
        >
          <line class="axis-line" x1={PAD.left} y1={H - PAD.bottom} x2={W - PAD.right} y2={H - PAD.bottom} />
          <text x={PAD.left - 6} y={PAD.top + 10} text-anchor="end">
            {formatValue(Math.max(...values))}
          </text>
          <text x={PAD.left - 6} y={H - PAD.bottom} text-anchor="end">
            {formatValue(Math.min(0, ...values))}
          </text>
          <text class="axis-from" x={PAD.left} y={H - 8}>
            {labels!.from}
          </text>
          <text class="axis-to" x={W - PAD.right} y={H - 8} text-anchor="end">
            {labels!.to}
          </text>
          {markerX !== null && (
            <>
              <line
                class="marker"
                data-testid={`${testId}-marker`}
                x1={markerX}
                y1={PAD.top}
                x2={markerX}
                y2={H - PAD.bottom}
              />
              <text class="marker-label" x={markerX + 4} y={PAD.top + 22}>
                {marker!.label}
              </text>
            </>
          )}
          {W >= 330 && (
            <text class="axis-label" x={(PAD.left + W - PAD.right) / 2} y={H - 8} text-anchor="middle">
              {labels!.title}
            </text>
          )}
          <polyline class="series" points={xy.map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' ')} />
          {xy.map((p, i) => (
            <circle class="dot" key={i} cx={p.x} cy={p.y} r={3}>
              <title>{`${labels!.point(sorted[i]!.t)}: ${formatValue(sorted[i]!.v)}`}</title>
            </circle>
          ))}
        </svg>
      )}
    </figure>
  );
}
