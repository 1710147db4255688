import type { CreatorCampaignStatus } from './schema.js';

type Clause = Record<string, unknown>;

/** Elasticsearch's default result window: the most campaigns one request returns. */
export const MAX_CREATOR_CAMPAIGNS = 10_000;

/** Pure: the time condition of a creator-campaign status at `now` (FUTURE: not started, LIVE: running, PAST: ended). */
export function creatorStatusClause(status: CreatorCampaignStatus, now: number): Clause {
  if (status === 'FUTURE') return { range: { startTimestamp: { gt: now } } };
  if (status === 'PAST') return { range: { endTimestamp: { lte: now } } };
  return { bool: { filter: [{ range: { startTimestamp: { lte: now } } }, { range: { endTimestamp: { gt: now } } }] } };
}

/**
 * Pure: the search body of a creator's campaigns: created by any of `addresses` (lower-case;
 * the field has a lowercase normalizer), optionally in one status; newest first, id tie-breaker.
 */
export function buildCreatorCampaignsQuery(
  addresses: readonly string[],
  status: CreatorCampaignStatus | undefined,
  now: number,
) {
  const filter: Clause[] = [{ terms: { creatorAddress: addresses.map((a) => a.toLowerCase()) } }];
  if (status) filter.push(creatorStatusClause(status, now));
  return {
    from: 0,
    size: MAX_CREATOR_CAMPAIGNS,
    track_total_hits: false,
    query: { bool: { filter } },
    sort: [{ createdAt: 'desc' as const }, { id: 'asc' as const }],
  };
}
