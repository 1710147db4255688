import { formatCompact } from './format.js';

export type Point = { t: number; v: number };

export type LineChartProps = { title: string; points: Point[]; formatValue?: (v: number) => string; testId: string };

const W = 600;
const H = 200;
const PAD = { left: 56, right: 12, top: 12, bottom: 28 };

/** Pure: data → SVG coordinates inside the padded box (a single point sits in the middle). */
export function scalePoints(points: Point[]): { x: number; y: number }[] {
  if (!points.length) return [];
  const ts = points.map((p) => p.t);
  const vs = points.map((p) => p.v);
  const [t0, t1] = [Math.min(...ts), Math.max(...ts)];
  const [v0, v1] = [Math.min(0, ...vs), Math.max(...vs)];
  const x = (t: number) => (t1 === t0 ? (PAD.left + W - PAD.right) / 2 : PAD.left + ((t - t0) / (t1 - t0)) * (W - PAD.left - PAD.right));
  const y = (v: number) => (v1 === v0 ? H / 2 : H - PAD.bottom - ((v - v0) / (v1 - v0)) * (H - PAD.top - PAD.bottom));
  return points.map((p) => ({ x: x(p.t), y: y(p.v) }));
}

/** A small SVG line chart of a time series (oldest left), with its min/max and first/last dates. */
export function LineChart({ title, points, formatValue = formatCompact, testId }: LineChartProps) {
  const sorted = [...points].sort((a, b) => a.t - b.t);
  const xy = scalePoints(sorted);
  const values = sorted.map((p) => p.v);
  const day = (t: number) => new Date(t * 1000).toISOString().slice(0, 10);
  return (
    <figure class="line-chart" data-testid={testId} data-points={sorted.length}>
      <figcaption>{title}</figcaption>
      {sorted.length === 0 ? <p class="muted">No history yet</p> : (
        <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`${title}: ${sorted.length} points, last ${formatValue(values[values.length - 1]!)}`}>
          <line class="axis-line" x1={PAD.left} y1={H - PAD.bottom} x2={W - PAD.right} y2={H - PAD.bottom} />
          <text x={PAD.left - 6} y={PAD.top + 10} text-anchor="end">{formatValue(Math.max(...values))}</text>
          <text x={PAD.left - 6} y={H - PAD.bottom} text-anchor="end">{formatValue(Math.min(0, ...values))}</text>
          <text x={PAD.left} y={H - 8}>{day(sorted[0]!.t)}</text>
          <text x={W - PAD.right} y={H - 8} text-anchor="end">{day(sorted[sorted.length - 1]!.t)}</text>
          <polyline class="series" points={xy.map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' ')} />
          {xy.map((p, i) => <circle class="dot" key={i} cx={p.x} cy={p.y} r={3}><title>{`${day(sorted[i]!.t)}: ${formatValue(sorted[i]!.v)}`}</title></circle>)}
        </svg>
      )}
    </figure>
  );
}
