import { buildOpportunityFilter, type Clause, type FilterContext } from './filters.js';
import { SORT_FIELDS, type GroupField, type NumericField, type OppFilters } from './schema.js';

export type { FilterContext } from './filters.js';

/** Default order when `sort` is absent: newest last campaign creation first (documented in the README of the route). */
export const DEFAULT_SORT = 'lastCampaignCreatedAt' as const;
/** Buckets returned by a grouped aggregate (chainId, protocolId, tags). */
export const MAX_GROUP_BUCKETS = 500;

/** Document field of each grouped aggregate (`protocolId` is the protocol slug in `mainProtocol`). */
const GROUP_FIELD_OF: Record<GroupField, string> = { chainId: 'chainId', protocolId: 'mainProtocol', tags: 'tags' };

/**
 * Pure: validated OPP-FILTERS (or CREATOR-OPP-FILTERS) at `now` → the query and sort of a list
 * page; the sort ends with `id` asc so pages never repeat or skip an opportunity. Exported for the
 * creators routes. `context.testChainIds` are hidden unless `test=true`.
 */
export function buildOpportunityListQuery(q: OppFilters, now: number, context: Omit<FilterContext, 'now'> = {}) {
  const field = SORT_FIELDS[q.sort ?? DEFAULT_SORT];
  const order = q.order ?? 'desc';
  return {
    query: buildOpportunityFilter(q, { ...context, now }),
    sort: [{ [field]: { order, missing: '_last' } }, { id: { order: 'asc' } }] as Record<
      string,
      { order: 'asc' | 'desc'; missing?: '_last' }
    >[],
  };
}

/** Pure: body of `_count` for the filtered set. */
export function buildCountQuery(q: OppFilters, now: number, context: Omit<FilterContext, 'now'> = {}) {
  return { query: buildOpportunityFilter(q, { ...context, now }) };
}

/** Pure: min, max and count of one metric over the filtered set (the first step of bins). */
export function buildStatsQuery(
  q: OppFilters,
  metric: NumericField,
  now: number,
  context: Omit<FilterContext, 'now'> = {},
) {
  return {
    size: 0,
    track_total_hits: true,
    query: buildOpportunityFilter(q, { ...context, now }),
    aggs: { stats: { stats: { field: metric } } },
  };
}

/**
 * Pure: a `range` aggregation over `edges` (ascending). The first range is open below and the last
 * open above, so every document with a value lands in exactly one bin.
 */
export function buildBinsQuery(
  q: OppFilters,
  metric: NumericField,
  edges: number[],
  now: number,
  context: Omit<FilterContext, 'now'> = {},
) {
  const ranges: Clause[] = [];
  for (let i = 0; i + 1 < edges.length; i++)
    ranges.push({ ...(i > 0 ? { from: edges[i] } : {}), ...(i + 2 < edges.length ? { to: edges[i + 1] } : {}) });
  return {
    size: 0,
    query: buildOpportunityFilter(q, { ...context, now }),
    aggs: { bins: { range: { field: metric, ranges } } },
  };
}

/**
 * Pure: sum of a numeric field, or for chainId|protocolId|tags a terms aggregation (largest count
 * first, key asc on ties) with each bucket's summed tvl and dailyRewards.
 */
export function buildAggregateQuery(
  q: OppFilters,
  field: NumericField | GroupField,
  now: number,
  context: Omit<FilterContext, 'now'> = {},
) {
  const query = buildOpportunityFilter(q, { ...context, now });
  if (field === 'apr' || field === 'tvl' || field === 'dailyRewards')
    return { size: 0, query, aggs: { value: { sum: { field } } } };
  return {
    size: 0,
    query,
    aggs: {
      groups: {
        terms: {
          field: GROUP_FIELD_OF[field],
          size: MAX_GROUP_BUCKETS,
          order: [{ _count: 'desc' }, { _key: 'asc' }],
          // Opportunities without a protocol (mainProtocol "") form no bucket (issue 31; README of the route).
          ...(field === 'chainId' ? {} : { exclude: [''] }),
        },
        aggs: { tvl: { sum: { field: 'tvl' } }, dailyRewards: { sum: { field: 'dailyRewards' } } },
      },
    },
  };
}

/**
 * Pure: maximum or minimum of a field over the filtered set: a `max`/`min` aggregation of a numeric
 * field (apr, tvl, dailyRewards, chainId), else the greatest or least keyword in text order
 * (protocolId, tags: one terms bucket ordered by key, the empty protocol left out).
 */
export function buildExtremumQuery(
  q: OppFilters,
  kind: 'max' | 'min',
  field: NumericField | GroupField,
  now: number,
  context: Omit<FilterContext, 'now'> = {},
) {
  const query = buildOpportunityFilter(q, { ...context, now });
  if (field !== 'protocolId' && field !== 'tags')
    return { size: 0, query, aggs: { value: { [kind]: { field: GROUP_FIELD_OF[field as GroupField] ?? field } } } };
  const order = { _key: kind === 'max' ? 'desc' : 'asc' };
  return { size: 0, query, aggs: { key: { terms: { field: GROUP_FIELD_OF[field], size: 1, order, exclude: [''] } } } };
}
