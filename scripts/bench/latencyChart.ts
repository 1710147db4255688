import { Resvg } from '@resvg/resvg-js';

export type LatencySeries = { label: string; points: { x: string; ms: number }[] };

const COLORS = [
  '#1f77b4',
  '#ff7f0e',
  '#2ca02c',
  '#d62728',
  '#9467bd',
  '#8c564b',
  '#e377c2',
  '#7f7f7f',
  '#bcbd22',
  '#17becf',
  '#393b79',
  '#637939',
];
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/**
 * Pure: an SVG line chart of latency distributions: x = percentile (categorical, the same for
 * every series), y = milliseconds on a log scale, one line per series, with a legend.
 */
export function latencyChartSvg({
  title,
  series,
  width = 900,
  height = 480,
}: {
  title: string;
  series: LatencySeries[];
  width?: number;
  height?: number;
}): string {
  const m = { l: 70, r: 190, t: 40, b: 50 };
  const xs = series[0]?.points.map((p) => p.x) ?? [];
  const all = series.flatMap((s) => s.points.map((p) => Math.max(0.1, p.ms)));
  const lo = Math.log10(Math.min(...all, 1));
  const hi = Math.log10(Math.max(...all, 10));
  const px = (i: number) => m.l + (i / Math.max(1, xs.length - 1)) * (width - m.l - m.r);
  const py = (ms: number) =>
    height - m.b - ((Math.log10(Math.max(0.1, ms)) - lo) / (hi - lo || 1)) * (height - m.t - m.b);
  const ticks: number[] = [];
  for (let e = Math.floor(lo); e <= Math.ceil(hi); e++)
    for (const k of [1, 2, 5]) {
      const v = k * 10 ** e;
      if (v >= 10 ** lo && v <= 10 ** hi) ticks.push(v);
    }
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="DejaVu Sans" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="white"/>`,
    `<text x="${m.l}" y="24" font-size="15" font-weight="bold">${esc(title)}</text>`,
    ...ticks.map(
      (v) =>
        `<line x1="${m.l}" x2="${width - m.r}" y1="${py(v)}" y2="${py(v)}" stroke="#ddd"/><text x="${m.l - 6}" y="${py(v) + 4}" text-anchor="end">${v} ms</text>`,
    ),
    ...xs.map((x, i) => `<text x="${px(i)}" y="${height - m.b + 18}" text-anchor="middle">${esc(x)}</text>`),
    `<text x="${(m.l + width - m.r) / 2}" y="${height - 12}" text-anchor="middle">percentile</text>`,
    ...series.map((s, k) => {
      const color = COLORS[k % COLORS.length]!;
      const d = s.points.map((p, i) => `${i ? 'L' : 'M'}${px(i).toFixed(1)},${py(p.ms).toFixed(1)}`).join(' ');
      return `<path d="${d}" fill="none" stroke="${color}" stroke-width="2"/><rect x="${width - m.r + 12}" y="${m.t + k * 18}" width="12" height="12" fill="${color}"/><text x="${width - m.r + 30}" y="${m.t + k * 18 + 10}">${esc(s.label)}</text>`;
    }),
    '</svg>',
  ];
  return parts.join('\n');
}

/** Renders an SVG to PNG offline (resvg, system fonts). */
export function svgToPng(svg: string): Buffer {
  return new Resvg(svg, { font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' }, background: 'white' })
    .render()
    .asPng();
}
