import type { FieldError } from '../../errors.js';
import type { CampaignSnapshotRow } from '../campaignReads.js';
import type { MetricSeries } from './schema.js';

/** Paging of one metrics series. */
export type SeriesPaging = { page: number; limit: number };

export const DEFAULT_SERIES_LIMIT = 100;
export const MAX_SERIES_LIMIT = 1000;

/**
 * Pure: paging of one series from the validated query, given as `tvl[page]=0&tvl[limit]=50` or as a
 * JSON string `tvl={"page":0,"limit":50}` (the JSON form wins when both are sent). Defaults: page 0,
 * limit 100; limit at most 1000.
 */
export function parseSeriesPaging(query: Record<string, unknown>, series: MetricSeries): SeriesPaging | FieldError {
  let page = query[`${series}[page]`] as number | undefined;
  let limit = query[`${series}[limit]`] as number | undefined;
  const json = query[series];
  if (typeof json === 'string') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(json);
    } catch {
      parsed = null;
    }
    const o = parsed as { page?: unknown; limit?: unknown } | null;
    const ok =
      o !== null &&
      typeof o === 'object' &&
      !Array.isArray(o) &&
      Object.keys(o).every((k) => k === 'page' || k === 'limit') &&
      (o.page === undefined ||
        (Number.isInteger(o.page) && (o.page as number) >= 0 && (o.page as number) <= 1_000_000)) &&
      (o.limit === undefined ||
        (Number.isInteger(o.limit) && (o.limit as number) >= 1 && (o.limit as number) <= MAX_SERIES_LIMIT));
    if (!ok)
      return {
        field: series,
        message: `must be a JSON object {"page": integer ≥ 0, "limit": integer 1..${MAX_SERIES_LIMIT}}`,
      };
    page = (o.page as number | undefined) ?? page;
    limit = (o.limit as number | undefined) ?? limit;
  }
  return { page: page ?? 0, limit: limit ?? DEFAULT_SERIES_LIMIT };
}

/**
 * Pure: TVL gained per dollar of rewards. Definition: (last TVL − first TVL) of the snapshots that
 * carry a TVL, divided by the USD rewards paid between those two snapshots (each interval's days ×
 * the daily rewards of the snapshot opening it). 0 with fewer than two TVL snapshots or no rewards.
 */
export function tvlInflowPerDollar(rows: readonly CampaignSnapshotRow[]): number {
  const withTvl = rows.filter((r) => r.tvl !== null);
  if (withTvl.length < 2) return 0;
  let paid = 0;
  for (let i = 1; i < withTvl.length; i++) {
    const days = (Number(withTvl[i]!.ts) - Number(withTvl[i - 1]!.ts)) / 86_400;
    paid += days * (withTvl[i - 1]!.daily_rewards ?? 0);
  }
  if (paid <= 0) return 0;
  return (withTvl[withTvl.length - 1]!.tvl! - withTvl[0]!.tvl!) / paid;
}

/**
 * Pure: the reward-token units a campaign distributes per day: amount spread evenly over its window,
 * in whole tokens (decimals applied). 0 for an empty window.
 */
export function dailyAmountInToken(e: { amount: string; decimals: number; start: string; end: string }): number {
  const duration = Number(e.end) - Number(e.start);
  if (duration <= 0) return 0;
  return Number((BigInt(e.amount) * 86_400n) / BigInt(duration)) / 10 ** e.decimals;
}
