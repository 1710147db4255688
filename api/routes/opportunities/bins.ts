import type { NumericField } from '../../reads/opportunities/schema.js';

/** Smallest positive edge of the log scale: TVL or daily rewards below one cent share the first bin. */
const LOG_FLOOR = 0.01;
const STEPS = [1, 2, 5] as const;

/** Pure: the smallest 1-2-5 × 10^n number ≥ x (x > 0). */
export function niceCeil(x: number): number {
  const exp = Math.floor(Math.log10(x));
  for (const e of [exp, exp + 1]) for (const s of STEPS) if (s * 10 ** e >= x * (1 - 1e-12)) return round(s * 10 ** e);
  return round(10 ** (exp + 1));
}

const round = (x: number) => Number(x.toPrecision(12));

/**
 * Pure: readable bin edges for the values min..max of one metric, ascending, last edge > max.
 * TVL and daily rewards (skewed, spanning decades) get a log scale: 0, then the 1-2-5 sequence
 * from the decade of the smallest positive value (at least 0.01). APR gets about ten linear bins
 * of a 1-2-5 width from 0 (or below 0 when a value is negative).
 * @returns [] when there is no value.
 */
export function binEdges(metric: NumericField, min: number | null, max: number | null): number[] {
  if (min === null || max === null) return [];
  if (metric === 'apr') {
    const step = niceCeil(Math.max(max - Math.min(min, 0), 1) / 10);
    const first = Math.min(0, Math.floor(min / step) * step);
    const edges: number[] = [];
    for (let i = 0; edges.length === 0 || edges[edges.length - 1]! <= max; i++) edges.push(round(first + i * step));
    return edges;
  }
  const lowest = Math.max(min > 0 ? min : LOG_FLOOR, LOG_FLOOR);
  const edges = [0];
  let exp = Math.floor(Math.log10(lowest));
  for (;;) {
    for (const s of STEPS) {
      const e = round(s * 10 ** exp);
      if (e > edges[edges.length - 1]!) edges.push(e);
      if (e > max) return edges;
    }
    exp++;
  }
}
