import type { CampaignStatus, ListCampaignsQuery } from './schema.js';

type Clause = Record<string, unknown>;

/** Pure: the time condition of one status at `now` (SOON: not started, LIVE: running, PAST: ended). */
export function statusClause(status: CampaignStatus, now: number): Clause {
  if (status === 'SOON') return { range: { startTimestamp: { gt: now } } };
  if (status === 'PAST') return { range: { endTimestamp: { lte: now } } };
  return { bool: { filter: [{ range: { startTimestamp: { lte: now } } }, { range: { endTimestamp: { gt: now } } }] } };
}

const chainFilter = (q: ListCampaignsQuery): Clause | null => (q.chainId === undefined ? null : { term: { computeChainId: q.chainId } });

const statusFilter = (q: ListCampaignsQuery, now: number): Clause | null => {
  if (!q.status) return null;
  const statuses = [...new Set(q.status.split(','))] as CampaignStatus[];
  return { bool: { should: statuses.map((s) => statusClause(s, now)), minimum_should_match: 1 } };
};

/**
 * Pure: validated campaign list params → Elasticsearch search body. Newest campaigns first, the
 * id as tie-breaker so pages never repeat or skip a hit.
 */
export function buildListQuery(q: ListCampaignsQuery, now: number) {
  const filter = [chainFilter(q), statusFilter(q, now)].filter((c): c is Clause => c !== null);
  return {
    from: q.page * q.items,
    size: q.items,
    track_total_hits: false,
    query: { bool: { filter } },
    sort: [{ createdAt: 'desc' }, { id: 'asc' }],
  };
}
