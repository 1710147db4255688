import type { CampaignMetrics, OpportunityMetrics } from '../indexer/transform/computeMetrics.js';
import type { MetricsCampaignRow } from '../indexer/store/metrics.js';
import { statusOfPhases, toCampaignEndedEvents, toOpportunityEvents } from '../indexer/transform/figureEvents.js';
import { loadAnnouncedFigures, recordCampaignPhases, saveAnnouncedFigures } from '../indexer/store/announcedFigures.js';
import { appendEvents } from '../domain/tables/events.js';
import type { PgClient } from '../internal/pg.js';

/**
 * Inside the metrics run's transaction, after its upserts: `campaign.ended` for campaigns that became
 * PAST, `opportunity.changed` for opportunities whose status changed or whose figures moved beyond the
 * threshold since last announced (README "Events"). Appended last, just before commit.
 * @returns how many of each were announced.
 */
export async function announceFigureChanges(
  tx: PgClient,
  {
    campaigns,
    opportunities,
    chainOf,
    thresholdBps,
  }: {
    campaigns: readonly { row: MetricsCampaignRow; metrics: CampaignMetrics }[];
    opportunities: readonly OpportunityMetrics[];
    /** Opportunity id → its chain. */
    chainOf: ReadonlyMap<string, number>;
    thresholdBps: number;
  },
): Promise<{ ended: number; opportunities: number }> {
  const byId = new Map(campaigns.map((c) => [c.row.id, c.row]));
  const phaseChanges = await recordCampaignPhases(
    tx,
    campaigns.map((c) => ({ id: c.row.id, phase: c.metrics.phase })),
  );
  const ended = toCampaignEndedEvents(
    phaseChanges.flatMap((p) => {
      const row = byId.get(p.id);
      return row
        ? [
            {
              campaignDbId: row.id,
              campaignId: row.campaign_id,
              chainId: row.chain_id,
              opportunityId: row.opportunity_id,
              endTimestamp: Number(row.end_timestamp),
              previousPhase: p.previousPhase,
              phase: p.phase,
            },
          ]
        : [];
    }),
  );
  // Opportunity status over its public campaigns, as its figures (README "Campaign visibility").
  const phases = new Map<string, CampaignMetrics['phase'][]>();
  for (const c of campaigns) {
    if (c.row.is_private) continue;
    const list = phases.get(c.row.opportunity_id) ?? [];
    list.push(c.metrics.phase);
    phases.set(c.row.opportunity_id, list);
  }
  const last = await loadAnnouncedFigures(
    tx,
    opportunities.map((o) => o.opportunityId),
  );
  const figures = toOpportunityEvents(
    opportunities.map((o) => ({
      opportunityId: o.opportunityId,
      chainId: chainOf.get(o.opportunityId) ?? 0,
      last: last.get(o.opportunityId) ?? null,
      next: {
        status: statusOfPhases(phases.get(o.opportunityId) ?? []),
        // Events keep numbers (AnnouncedFigures): an unknown TVL/APR is announced as 0, as it was served.
        tvl: o.tvl ?? 0,
        apr: o.apr ?? 0,
        dailyRewards: o.dailyRewards,
      },
    })),
    thresholdBps,
  );
  await saveAnnouncedFigures(tx, figures.announced);
  await appendEvents(tx, [...ended, ...figures.events]);
  return { ended: ended.length, opportunities: figures.events.length };
}
