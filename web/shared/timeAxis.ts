const DAY = 86_400;
const isoOf = (t: number) => new Date(t * 1000).toISOString();

/**
 * Pure: how the time axis names its ends (and each point) for a span: days ("2026-11-28") over a
 * day or more, times of day ("14:05") under a day, whose date then goes in the axis title. A span of
 * minutes read "2026-11-28 … 2026-11-28" before (#44).
 */
export function timeAxisLabels(
  t0: number,
  t1: number,
): { from: string; to: string; title: string; point: (t: number) => string } {
  const day = (t: number) => isoOf(t).slice(0, 10);
  if (t1 - t0 >= DAY) return { from: day(t0), to: day(t1), title: 'time (UTC)', point: day };
  const time = (t: number) => isoOf(t).slice(11, 16);
  const days = day(t0) === day(t1) ? day(t0) : `${day(t0)} – ${day(t1).slice(8)}`;
  return { from: time(t0), to: time(t1), title: `time (UTC), ${days}`, point: (t) => `${day(t)} ${time(t)} UTC` };
}
