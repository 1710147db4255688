import { readIndex, listOpportunities } from '../../reads/opportunities/listOpportunities.js';
import { nowSeconds, type ApiDeps } from '../../deps.js';
import { ServiceUnavailableError } from '../../errors.js';
import { binEdges } from './bins.js';
import {
  buildAggregateQuery,
  buildBinsQuery,
  buildCountQuery,
  buildExtremumQuery,
  buildStatsQuery,
} from '../../reads/opportunities/query.js';
import { searchOnce } from '../../search/searchOnce.js';
import { opportunityFilterContext } from '../../reads/opportunities/filterContext.js';
import type { Handler } from '../../validate.js';
import type {
  aggregateParams,
  extremumParams,
  NumericField,
  oppFiltersQuery,
} from '../../reads/opportunities/schema.js';
import { serializeBins, serializeDecimal, serializeGroups, serializeSum } from '../../reads/opportunities/serialize.js';

/** GET /v4/opportunities: listOpportunities over the validated query. */
export function listOpportunitiesHandler(deps: ApiDeps): Handler<{ query: typeof oppFiltersQuery }> {
  return async (ctx) => {
    ctx.body = await listOpportunities(deps, ctx.state.query);
  };
}

/** GET /v4/opportunities/count: a bare JSON number. */
export function countOpportunitiesHandler(deps: ApiDeps): Handler<{ query: typeof oppFiltersQuery }> {
  return async (ctx) => {
    const now = nowSeconds(deps);
    const { filter } = await opportunityFilterContext(deps, ctx.state.query.campaignId, now);
    const timeoutMs = deps.config.esRequestTimeoutMs;
    const res = await deps.es.count(
      { index: readIndex(deps), ...buildCountQuery(ctx.state.query, now, filter) },
      { requestTimeout: timeoutMs },
    );
    if (res._shards.failed > 0) throw new ServiceUnavailableError('elasticsearch');
    ctx.body = res.count;
  };
}

/** GET /v4/opportunities/bins/{apr|tvl|daily-rewards}: stats of the filtered set, then a range aggregation over readable edges. */
export function binsHandler(deps: ApiDeps, metric: NumericField): Handler<{ query: typeof oppFiltersQuery }> {
  return async (ctx) => {
    const q = ctx.state.query;
    const now = nowSeconds(deps);
    const { filter } = await opportunityFilterContext(deps, q.campaignId, now);
    const stats = await searchOnce<never>(deps, readIndex(deps), buildStatsQuery(q, metric, now, filter));
    const { min, max } = stats.aggregations!['stats'] as { min: number | null; max: number | null };
    const edges = binEdges(metric, min, max);
    if (!edges.length) return void (ctx.body = { data: [] });
    const res = await searchOnce<never>(deps, readIndex(deps), buildBinsQuery(q, metric, edges, now, filter));
    ctx.body = serializeBins(edges, (res.aggregations!['bins'] as { buckets: { doc_count: number }[] }).buckets);
  };
}

/** GET /v4/opportunities/aggregate/{field}: `{ sum }` for apr|tvl|dailyRewards; `[{ key, count, tvl, dailyRewards }]` for chainId|protocolId|tags. */
export function aggregateHandler(
  deps: ApiDeps,
): Handler<{ params: typeof aggregateParams; query: typeof oppFiltersQuery }> {
  return async (ctx) => {
    const field = ctx.state.params.field;
    const now = nowSeconds(deps);
    const { filter } = await opportunityFilterContext(deps, ctx.state.query.campaignId, now);
    const res = await searchOnce<never>(
      deps,
      readIndex(deps),
      buildAggregateQuery(ctx.state.query, field, now, filter),
    );
    const aggs = res.aggregations as Record<string, { value?: number | null; buckets?: never[] }>;
    ctx.body = aggs['groups']
      ? serializeGroups(aggs['groups'].buckets!)
      : { sum: serializeSum(aggs['value']!.value ?? 0) };
  };
}

/**
 * GET /v4/opportunities/aggregate/{max|min}/{field}: `{ max }` / `{ min }`, a decimal string for the
 * numeric fields and chainId, the protocol slug or tag for protocolId and tags (null when nothing matches).
 */
export function extremumHandler(
  deps: ApiDeps,
  kind: 'max' | 'min',
): Handler<{ params: typeof extremumParams; query: typeof oppFiltersQuery }> {
  return async (ctx) => {
    const field = ctx.state.params.field;
    const now = nowSeconds(deps);
    const { filter } = await opportunityFilterContext(deps, ctx.state.query.campaignId, now);
    const res = await searchOnce<never>(
      deps,
      readIndex(deps),
      buildExtremumQuery(ctx.state.query, kind, field, now, filter),
    );
    const aggs = res.aggregations as Record<string, { value?: number | null; buckets?: { key: string }[] }>;
    ctx.body = {
      [kind]: aggs['key'] ? (aggs['key'].buckets![0]?.key ?? null) : serializeDecimal(aggs['value']!.value),
    };
  };
}
