import { NO_PROTOCOL_KEY } from '../../../domain/protocols.js';
import type { CountGroup } from './schema.js';

type Clause = Record<string, unknown>;

/** Campaign document field each grouping counts by: the chain of `chainId` (compute chain), the type name, the main protocol. */
export const COUNT_GROUP_FIELDS: Record<CountGroup, string> = {
  chains: 'computeChainId',
  types: 'type',
  protocols: 'mainProtocolId',
};

/** Most keys one grouping answers (chains, types and protocols are each far fewer). */
export const MAX_COUNT_KEYS = 5000;

/**
 * Pure: the count of the campaigns matching `query` (the list query's `query`, visibility applied by
 * searchCampaigns), as hits total and terms/date_histogram aggregations; never a hit.
 * @param group the field to count by (terms), or none for the total.
 * @param grain `month`: the same per UTC month of creation (`createdAt`, the creation block's time). Not the
 *   start date: `startTimestamp` is Unix seconds in a long field, which date_histogram reads as milliseconds,
 *   and the cluster runs no scripts to convert it.
 */
export function buildCountQuery(query: Clause, group?: CountGroup, grain?: 'month') {
  // Campaigns without a protocol count under NO_PROTOCOL_KEY, as the distributed totals group them.
  const missing = group === 'protocols' ? { missing: NO_PROTOCOL_KEY } : {};
  const byKey = group
    ? { keys: { terms: { field: COUNT_GROUP_FIELDS[group], size: MAX_COUNT_KEYS, ...missing } } }
    : undefined;
  const body: Record<string, unknown> = { size: 0, track_total_hits: true, query };
  if (grain === 'month') {
    body['aggs'] = {
      months: {
        date_histogram: { field: 'createdAt', calendar_interval: 'month', format: 'yyyy-MM', min_doc_count: 1 },
        ...(byKey ? { aggs: byKey } : {}),
      },
    };
  } else if (byKey) body['aggs'] = byKey;
  return body;
}

type KeyBucket = { key: string | number; doc_count: number };
type MonthBucket = { key_as_string: string; doc_count: number; keys?: { buckets: KeyBucket[] } };

/** Pure: terms buckets → `{ key: count }` (keys as strings, as JSON object keys are). */
export function serializeKeyCounts(buckets: KeyBucket[]): Record<string, number> {
  return Object.fromEntries(buckets.map((b) => [String(b.key), b.doc_count]));
}

/**
 * Pure: an Elasticsearch count response → the public body: a bare number, `{ key: count }`,
 * `{ "YYYY-MM": count }` or `{ "YYYY-MM": { key: count } }`.
 */
export function serializeCount(
  res: { hits: { total?: number | { value: number } }; aggregations?: Record<string, unknown> },
  group?: CountGroup,
  grain?: 'month',
) {
  const aggs = res.aggregations ?? {};
  if (grain === 'month') {
    const months = (aggs['months'] as { buckets: MonthBucket[] }).buckets;
    return Object.fromEntries(
      months.map((m) => [m.key_as_string, group ? serializeKeyCounts(m.keys?.buckets ?? []) : m.doc_count]),
    );
  }
  if (group) return serializeKeyCounts((aggs['keys'] as { buckets: KeyBucket[] }).buckets);
  const total = res.hits.total;
  return typeof total === 'number' ? total : (total?.value ?? 0);
}
