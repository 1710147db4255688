type Bin = { min: number; max: number; count: number };

/** Pure: the edges labelled under the axis (between bars), thinned to at most `most` labels: `{ at: 0..1, value }`. */
export function axisTicks(bins: Bin[], most = 5): { at: number; value: number }[] {
  const inner = bins.slice(1).map((b, i) => ({ at: (i + 1) / bins.length, value: b.min }));
  const step = Math.max(1, Math.ceil(inner.length / most));
  return inner.filter((_, i) => i % step === 0);
}
