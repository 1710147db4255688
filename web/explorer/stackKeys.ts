import type { StackedSeries } from '../shared/stackLayout.js';

const sumOf = (series: StackedSeries) => {
  const totals = new Map<string, number>();
  for (const values of Object.values(series))
    for (const [key, v] of Object.entries(values)) totals.set(key, (totals.get(key) ?? 0) + v);
  return totals;
};

/**
 * Pure: the stack keys of both charts in one order (most distributed first, then most campaigns),
 * so a chain or protocol has the same place and colour in each.
 */
export function stackKeys(distributed: StackedSeries, counts: StackedSeries): string[] {
  const usd = sumOf(distributed);
  const n = sumOf(counts);
  return [...new Set([...usd.keys(), ...n.keys()])].sort(
    (a, b) => (usd.get(b) ?? 0) - (usd.get(a) ?? 0) || (n.get(b) ?? 0) - (n.get(a) ?? 0) || a.localeCompare(b),
  );
}
