import { formatCompact } from './format.js';

export type Point = { t: number; v: number };

export type LineChartProps = {
  title: string;
  points: Point[];
  formatValue?: (v: number) => string;
  testId: string;
  /** What the values are and where they come from, shown under the title. */
  note?: string;
  /** A moment to mark with a vertical line (e.g. the first campaign's start), Unix seconds. */
  marker?: { t: number; label: string };
  /** The data is not known yet. */
  loading?: boolean;
};

const W = 600;
const H = 200;
const PAD = { left: 56, right: 12, top: 12, bottom: 28 };

/** Pure: data → SVG coordinates inside the padded box (a single point sits in the middle). */
export function scalePoints(points: Point[], extraTimes: number[] = []): { x: number; y: number }[] {
  if (!points.length) return [];
  const ts = [...points.map((p) => p.t), ...extraTimes];
  const vs = points.map((p) => p.v);
  const [t0, t1] = [Math.min(...ts), Math.max(...ts)];
  const [v0, v1] = [Math.min(0, ...vs), Math.max(...vs)];
  const x = (t: number) =>
    t1 === t0 ? (PAD.left + W - PAD.right) / 2 : PAD.left + ((t - t0) / (t1 - t0)) * (W - PAD.left - PAD.right);
  const y = (v: number) => (v1 === v0 ? H / 2 : H - PAD.bottom - ((v - v0) / (v1 - v0)) * (H - PAD.top - PAD.bottom));
  return points.map((p) => ({ x: x(p.t), y: y(p.v) }));
}

/** A small SVG line chart of a time series (oldest left), with its min/max and first/last dates. */
export function LineChart({
  title,
  points,
  formatValue = formatCompact,
  testId,
  note,
  marker,
  loading = false,
}: LineChartProps) {
  const sorted = [...points].sort((a, b) => a.t - b.t);
  const xy = scalePoints(sorted, marker ? [marker.t] : []);
  const markerX =
    marker && sorted.length
      ? scalePoints([...sorted, { t: marker.t, v: sorted[0]!.v }], [marker.t])[sorted.length]!.x
      : null;
  const values = sorted.map((p) => p.v);
  const day = (t: number) => new Date(t * 1000).toISOString().slice(0, 10);
  return (
    <figure class="line-chart" data-testid={testId} data-points={sorted.length}>
      <figcaption>
        {title}
        {note && <small class="chart-note">{note}</small>}
      </figcaption>
      {sorted.length === 0 ? (
        <p class="muted">{loading ? 'Loading…' : 'No history yet'}</p>
      ) : (
        <svg
          viewBox={`0 0 ${W} ${H}`}
          role="img"
          aria-label={`${title}: ${sorted.length} points, last ${formatValue(values[values.length - 1]!)}`}
        >
          <line class="axis-line" x1={PAD.left} y1={H - PAD.bottom} x2={W - PAD.right} y2={H - PAD.bottom} />
          <text x={PAD.left - 6} y={PAD.top + 10} text-anchor="end">
            {formatValue(Math.max(...values))}
          </text>
          <text x={PAD.left - 6} y={H - PAD.bottom} text-anchor="end">
            {formatValue(Math.min(0, ...values))}
          </text>
          <text x={PAD.left} y={H - 8}>
            {day(Math.min(sorted[0]!.t, marker?.t ?? Infinity))}
          </text>
          <text x={W - PAD.right} y={H - 8} text-anchor="end">
            {day(Math.max(sorted[sorted.length - 1]!.t, marker?.t ?? -Infinity))}
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
          <text class="axis-label" x={(PAD.left + W - PAD.right) / 2} y={H - 8} text-anchor="middle">
            time (UTC)
          </text>
          <polyline class="series" points={xy.map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' ')} />
          {xy.map((p, i) => (
            <circle class="dot" key={i} cx={p.x} cy={p.y} r={3}>
              <title>{`${day(sorted[i]!.t)}: ${formatValue(sorted[i]!.v)}`}</title>
            </circle>
          ))}
        </svg>
      )}
    </figure>
  );
}
