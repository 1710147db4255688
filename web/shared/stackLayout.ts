/** Pure layout of web/shared/StackedBars.tsx: periods, stacked rectangles, table rows. */

/** Values per period, then per stack key: `{ "2026-11": { "1": 120.5, "10": 30 } }`. */
export type StackedSeries = Record<string, Record<string, number>>;

export const H = 220;
/** Width drawn before the chart is measured. */
export const DEFAULT_W = 600;
export const PAD = { left: 56, right: 8, top: 14, bottom: 30 };
/** A period label needs this much room; narrower slots label every n-th bar only. */
export const LABEL_W = 64;

export type Segment = { period: string; key: string; value: number; x: number; y: number; w: number; h: number };

/**
 * Pure: the periods in order and each non-zero value as a rectangle of a `w` × H drawing: one bar
 * per period, its keys stacked in `keys` order from the axis up, heights on one scale (the largest
 * period's total reaches the top).
 */
export function stackSegments(
  series: StackedSeries,
  keys: readonly string[],
  w = DEFAULT_W,
): { periods: string[]; top: number; segments: Segment[] } {
  const periods = Object.keys(series).sort();
  const totals = periods.map((p) => Object.values(series[p]!).reduce((s, v) => s + v, 0));
  const top = Math.max(0, ...totals);
  const slot = (w - PAD.left - PAD.right) / Math.max(1, periods.length);
  const barW = Math.min(56, slot * 0.7);
  const plotH = H - PAD.top - PAD.bottom;
  const segments: Segment[] = [];
  periods.forEach((period, i) => {
    const values = series[period]!;
    const order = [...keys.filter((k) => k in values), ...Object.keys(values).filter((k) => !keys.includes(k))];
    let base = H - PAD.bottom;
    for (const key of order) {
      const value = values[key]!;
      if (!(value > 0) || !(top > 0)) continue;
      const h = (value / top) * plotH;
      base -= h;
      segments.push({ period, key, value, x: PAD.left + slot * i + (slot - barW) / 2, y: base, w: barW, h });
    }
  });
  return { periods, top, segments };
}

/** Pure: every value of the series as table rows, period by period in `keys` order, with each period's total. */
export function stackedRows(series: StackedSeries, keys: readonly string[]) {
  return Object.keys(series)
    .sort()
    .map((period) => {
      const values = series[period]!;
      const order = [...keys.filter((k) => k in values), ...Object.keys(values).filter((k) => !keys.includes(k))];
      return {
        period,
        total: order.reduce((s, k) => s + values[k]!, 0),
        items: order.map((key) => ({ key, value: values[key]! })),
      };
    });
}
