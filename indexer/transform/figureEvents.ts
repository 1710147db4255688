import type { NewEvent } from '../../domain/tables/events.js';
import type { OpportunityStatus } from '../../domain/documents/campaignSummary.js';
import type { CampaignPhase } from './computeMetrics.js';

/** What an `opportunity.changed` event announces, and what the next one is compared with. */
export type AnnouncedFigures = { status: OpportunityStatus | null; tvl: number; apr: number; dailyRewards: number };

const FIGURES = ['tvl', 'apr', 'dailyRewards'] as const;

/**
 * Pure: whether `next` is worth announcing after `last`: the status changed (an unknown last status,
 * as migrated rows have, is adopted silently), or a figure moved by more than `thresholdBps` of the
 * larger of the two values (so 0 → anything is a change, and a slow drift adds up against the last
 * announced figure rather than the last computed one).
 * @returns the names of what changed (empty: nothing to announce).
 */
export function changedFigures(last: AnnouncedFigures | null, next: AnnouncedFigures, thresholdBps: number): string[] {
  if (!last) return ['status', ...FIGURES];
  const changed: string[] = [];
  if (last.status !== null && last.status !== next.status) changed.push('status');
  for (const f of FIGURES) {
    const delta = Math.abs(next[f] - last[f]);
    if (delta > 0 && delta * 10_000 > thresholdBps * Math.max(Math.abs(last[f]), Math.abs(next[f]))) changed.push(f);
  }
  return changed;
}

/** Pure: an opportunity's status from its public campaigns' phases at one instant (as opportunityStatus). */
export function statusOfPhases(phases: readonly CampaignPhase[]): OpportunityStatus {
  if (phases.includes('LIVE')) return 'LIVE';
  if (phases.includes('SOON')) return 'SOON';
  return phases.length ? 'PAST' : 'NONE';
}

/**
 * Pure: `opportunity.changed` events for the opportunities whose figures moved beyond the threshold
 * since last announced, with the figures to remember as announced.
 */
export function toOpportunityEvents(
  items: readonly { opportunityId: string; chainId: number; last: AnnouncedFigures | null; next: AnnouncedFigures }[],
  thresholdBps: number,
): { events: NewEvent[]; announced: { opportunityId: string; figures: AnnouncedFigures }[] } {
  const events: NewEvent[] = [];
  const announced: { opportunityId: string; figures: AnnouncedFigures }[] = [];
  for (const { opportunityId, chainId, last, next } of items) {
    const changed = changedFigures(last, next, thresholdBps);
    if (!changed.length) {
      // A status learnt for the first time is kept without an event.
      if (last && last.status === null) announced.push({ opportunityId, figures: { ...last, status: next.status } });
      continue;
    }
    events.push({
      type: 'opportunity.changed',
      chainId,
      opportunityId,
      payload: { changed, ...next, previous: last },
    });
    announced.push({ opportunityId, figures: next });
  }
  return { events, announced };
}

/** Pure: `campaign.ended` for each campaign whose phase became PAST since its last announced phase. */
export function toCampaignEndedEvents(
  rows: readonly {
    campaignDbId: string;
    campaignId: string;
    chainId: number;
    opportunityId: string;
    endTimestamp: number;
    previousPhase: CampaignPhase | null;
    phase: CampaignPhase;
  }[],
): NewEvent[] {
  return rows
    .filter((r) => r.phase === 'PAST' && r.previousPhase !== 'PAST')
    .map((r) => ({
      type: 'campaign.ended',
      chainId: r.chainId,
      campaignDbId: r.campaignDbId,
      opportunityId: r.opportunityId,
      payload: { campaignId: r.campaignId, endTimestamp: r.endTimestamp },
    }));
}
