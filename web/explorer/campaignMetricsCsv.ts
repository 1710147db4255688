import type { CampaignMetrics } from './types.js';

/** The header of a campaign's metrics CSV: one row per snapshot, oldest first. */
export const CAMPAIGN_METRICS_CSV_HEADER = 'timestamp,date,apr,tvl,dailyRewards,dailyRewardsInToken';

const cell = (v: number | undefined) => (v === undefined || v === null ? '' : String(v));

/**
 * Pure: a campaign's metrics (GET /v4/campaigns/{id}/metrics, what its three charts draw) as CSV:
 * one row per snapshot time, oldest first, `date` in UTC ISO 8601; a series without a value at that
 * time leaves its cell empty. The API has no CSV of these, so the page writes the rows it shows.
 */
export function campaignMetricsCsv(
  m: Pick<CampaignMetrics, 'aprRecords' | 'tvlRecords' | 'dailyRewardsRecords'>,
): string {
  const rows = new Map<number, { apr?: number; tvl?: number; daily?: number; inToken?: number }>();
  const at = (t: string | number) => {
    const k = Number(t);
    let row = rows.get(k);
    if (!row) rows.set(k, (row = {}));
    return row;
  };
  for (const r of m.aprRecords) at(r.timestamp).apr = r.apr;
  for (const r of m.tvlRecords) at(r.timestamp).tvl = r.total;
  for (const r of m.dailyRewardsRecords) Object.assign(at(r.timestamp), { daily: r.total, inToken: r.totalInToken });
  const lines = [...rows.entries()]
    .sort(([a], [b]) => a - b)
    .map(([t, r]) =>
      [t, new Date(t * 1000).toISOString(), cell(r.apr), cell(r.tvl), cell(r.daily), cell(r.inToken)].join(','),
    );
  return `${[CAMPAIGN_METRICS_CSV_HEADER, ...lines].join('\n')}\n`;
}
