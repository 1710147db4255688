import type { Grain } from './state.js';

/** Pure: the UTC start (Unix seconds) of the grain bucket holding `t` (weeks start on Monday, as PostgreSQL's date_trunc). */
export function bucketStart(t: number, grain: Grain): number {
  const d = new Date(t * 1000);
  if (grain === 'hour') d.setUTCMinutes(0, 0, 0);
  else {
    d.setUTCHours(0, 0, 0, 0);
    if (grain === 'week') d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
    if (grain === 'month') d.setUTCDate(1);
  }
  return Math.floor(d.getTime() / 1000);
}

/**
 * Pure: an opportunity's daily-rewards history from its campaigns' series: each campaign's values
 * averaged per bucket (as the records endpoints do), then summed across campaigns per bucket.
 */
export function sumSeriesByBucket(series: { t: number; v: number }[][], grain: Grain): { t: number; v: number }[] {
  const total = new Map<number, number>();
  for (const points of series) {
    const buckets = new Map<number, { sum: number; n: number }>();
    for (const p of points) {
      const b = buckets.get(bucketStart(p.t, grain)) ?? { sum: 0, n: 0 };
      buckets.set(bucketStart(p.t, grain), { sum: b.sum + p.v, n: b.n + 1 });
    }
    for (const [t, b] of buckets) total.set(t, (total.get(t) ?? 0) + b.sum / b.n);
  }
  return [...total].map(([t, v]) => ({ t, v })).sort((a, b) => a.t - b.t);
}

/** Pure: LIVE, SOON or PAST of a campaign window at `now` (Unix seconds). */
export function campaignStatusAt(start: number, end: number, now: number): 'LIVE' | 'SOON' | 'PAST' {
  return now < start ? 'SOON' : now >= end ? 'PAST' : 'LIVE';
}
