import { formatPercent } from '../shared/format.js';

/** Pure: the totals' APR range: one figure when min = max, "no results" for an empty result. */
export function aprRangeText(summary: { count: number; minApr: string | null; maxApr: string | null }): string {
  if (summary.count === 0) return 'no results';
  if (summary.minApr === null || summary.maxApr === null) return 'not known';
  const [min, max] = [formatPercent(summary.minApr), formatPercent(summary.maxApr)];
  return min === max ? min : `${min} – ${max}`;
}
