import type { Bin, ExplorerState, RangeMetric } from './state.js';

/**
 * Pure: the histogram bins the filter's range can hold: a bin wholly below the minimum or at or
 * above the maximum (bins are [min, max)) holds nothing by construction, so it is not drawn.
 */
export function binsWithinFilter<B extends Bin>(bins: readonly B[], state: ExplorerState, metric: RangeMetric): B[] {
  const min = Number(state.filters[`minimum${metric}`] ?? Number.NaN);
  const max = Number(state.filters[`maximum${metric}`] ?? Number.NaN);
  return bins.filter(
    (b, i) =>
      !(Number.isFinite(min) && i < bins.length - 1 && b.max <= min) && !(Number.isFinite(max) && i > 0 && b.min > max),
  );
}
