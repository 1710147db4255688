import { indexNames } from '../../../internal/es.js';
import { opportunityFilterContext } from '../../reads/opportunities/filterContext.js';
import { nowSeconds, type ApiDeps } from '../../deps.js';
import { searchOnce } from '../../search/searchOnce.js';
import { arr, int, nullable, num, obj, str } from '../../openapi/schemaHelpers.js';
import { binEdges } from './bins.js';
import { buildBinsQuery, buildStatsQuery } from '../../reads/opportunities/query.js';
import type { Handler } from '../../validate.js';
import {
  NUMERIC_FIELDS,
  type NumericField,
  type OppFilters,
  type oppFiltersQuery,
} from '../../reads/opportunities/schema.js';
import { serializeBins, serializeDecimal, serializeSum } from '../../reads/opportunities/serialize.js';

/** GET /opportunities/summary: what /count, /aggregate/{tvl,dailyRewards}, /aggregate/{min,max}/apr and the three /bins answer, in one object. */
const binList = arr(obj({ min: num, max: num, count: int }));
export const summarySchema = obj({
  count: int,
  tvl: nullable(str),
  dailyRewards: nullable(str),
  minApr: nullable(str),
  maxApr: nullable(str),
  bins: obj({ apr: binList, tvl: binList, dailyRewards: binList }),
});

type Stats = { min: number | null; max: number | null };

/**
 * Totals and distribution bins of one OPP-FILTERS set in two searches instead of nine requests: the
 * explorer shows them together, and one view then costs two requests of the caller's rate limit
 * (this and the list). Figures are those of the separate endpoints (same filter, same edges).
 */
export async function opportunitySummary(deps: ApiDeps, q: OppFilters) {
  const now = nowSeconds(deps);
  const { filter } = await opportunityFilterContext(deps, q.campaignId, now);
  const index = indexNames(deps.config.esIndexPrefix, 'opportunities').read;
  const statsBody = buildStatsQuery(q, 'apr', now, filter);
  const aggs = {
    ...Object.fromEntries(NUMERIC_FIELDS.map((m) => [m, { stats: { field: m } }])),
    tvlSum: { sum: { field: 'tvl' } },
    dailyRewardsSum: { sum: { field: 'dailyRewards' } },
  };
  const stats = await searchOnce<never>(deps, index, { ...statsBody, aggs });
  const total = stats.hits.total;
  const count = typeof total === 'number' ? total : (total?.value ?? 0);
  const of = (m: NumericField) => stats.aggregations![m] as Stats;
  const sum = (name: string) => (stats.aggregations![name] as { value: number | null }).value ?? 0;
  const edges = Object.fromEntries(NUMERIC_FIELDS.map((m) => [m, binEdges(m, of(m).min, of(m).max)])) as Record<
    NumericField,
    number[]
  >;
  const withEdges = NUMERIC_FIELDS.filter((m) => edges[m].length > 0);
  const bins: Record<NumericField, { min: number; max: number; count: number }[]> = {
    apr: [],
    tvl: [],
    dailyRewards: [],
  };
  if (withEdges.length) {
    const rangeAggs = Object.fromEntries(
      withEdges.map((m) => [m, buildBinsQuery(q, m, edges[m], now, filter).aggs.bins]),
    );
    const res = await searchOnce<never>(deps, index, { size: 0, query: statsBody.query, aggs: rangeAggs });
    for (const m of withEdges)
      bins[m] = serializeBins(edges[m], (res.aggregations![m] as { buckets: { doc_count: number }[] }).buckets).data;
  }
  return {
    count,
    tvl: serializeSum(sum('tvlSum')),
    dailyRewards: serializeSum(sum('dailyRewardsSum')),
    minApr: serializeDecimal(of('apr').min),
    maxApr: serializeDecimal(of('apr').max),
    bins,
  };
}

/** GET /v4/opportunities/summary. */
export function summaryHandler(deps: ApiDeps): Handler<{ query: typeof oppFiltersQuery }> {
  return async (ctx) => {
    ctx.body = await opportunitySummary(deps, ctx.state.query);
  };
}
