/**
 * The query mix of the search benchmark, each kind runnable through three paths with the same
 * filter: (a) our API over HTTP, (b) the raw Elasticsearch requests our API sends (bodies from
 * the real builders in api/routes/opportunities/query.ts), (c) hand-written SQL on PostgreSQL.
 */
import http from 'node:http';
import { binEdges } from '../../api/routes/opportunities/bins.js';
import {
  buildAggregateQuery,
  buildBinsQuery,
  buildCountQuery,
  buildOpportunityListQuery,
  buildStatsQuery,
} from '../../api/reads/opportunities/query.js';
import { oppFiltersQuery, type NumericField, type PagedOppFilters } from '../../api/reads/opportunities/schema.js';
import { ajv } from '../../api/validate.js';
import type { EsClient } from '../../internal/es.js';
import type { PgPool } from '../../internal/pg.js';
import { serverTimingMs } from './benchParams.js';
import { CAMPAIGN_COUNT_KINDS } from './campaignCountKinds.js';

/** Query-string parameters of one request (strings, as a client sends them). */
export type Params = Record<string, string>;
export type Kind = {
  name: string;
  /** Filter + aggregation kinds (count, bins, aggregates): the PostgreSQL/API target applies to them. */
  filterAndBins: boolean;
  path: string;
  /** Request headers of the API path (a back-office token). */
  headers?: Record<string, string>;
  /** The kind's parameters; `jitter` makes every request's body unique (see BenchTargets.run). */
  params: (jitter: number) => Params;
  /** The raw Elasticsearch requests of an opportunity kind, from its validated OPP-FILTERS. */
  es?: (t: BenchTargets, q: PagedOppFilters, now: number) => Promise<unknown>;
  /** The raw Elasticsearch requests of a kind whose parameters are not OPP-FILTERS (campaign counts). */
  esParams?: (t: BenchTargets, p: Params, now: number) => Promise<unknown>;
  sql: (t: BenchTargets, p: Params, now: number) => Promise<unknown>;
};

/** Whether `kind` can go through `path` (kinds without a raw Elasticsearch request have no `es` path). */
export const hasPath = (kind: Kind, path: BenchPath) => path !== 'es' || Boolean(kind.es ?? kind.esParams);

export type BenchTargets = {
  apiUrl: string;
  agent: http.Agent;
  es: EsClient;
  pg: PgPool;
  index: string;
  timeoutMs: number;
};

const validateFilters = ajv.compile(oppFiltersQuery);
/** The validated PagedOppFilters our API's `validate` middleware hands the handler (same schema, coercion and defaults). */
export function toFilters(p: Params): PagedOppFilters {
  const q: Record<string, unknown> = { ...p };
  if (!validateFilters(q))
    throw new Error(`invalid bench params ${JSON.stringify(p)}: ${JSON.stringify(validateFilters.errors)}`);
  return q as unknown as PagedOppFilters;
}

/**
 * GET over the keep-alive agent, body read; resolves with the time the API says it spent
 * (`Server-Timing: app;dur=`, NaN when absent), rejects on a non-200.
 */
/**
 * `Accept-Encoding` of the `apiEncoded` path (BENCH_ACCEPT_ENCODING, e.g. `gzip, br` as browsers
 * send): the same API requests, answered compressed. The `api` path sends none (identity).
 */
export const BENCH_ACCEPT_ENCODING = process.env['BENCH_ACCEPT_ENCODING'] || undefined;

function httpGet(
  t: BenchTargets,
  path: string,
  p: Params,
  acceptEncoding?: string,
  extra: Record<string, string> = {},
): Promise<number> {
  const url = `${t.apiUrl}${path}?${new URLSearchParams(p).toString()}`;
  const headers = { ...extra, ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}) };
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: t.agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        const serverMs = serverTimingMs(res.headers['server-timing']);
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          res.statusCode === 200
            ? resolve(serverMs)
            : reject(new Error(`GET ${url} → ${res.statusCode}: ${Buffer.concat(chunks).toString().slice(0, 300)}`)),
        );
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/** The ways a request of the mix is served (`apiEncoded`: through the API with BENCH_ACCEPT_ENCODING). */
export type BenchPath = 'api' | 'apiEncoded' | 'es' | 'pg';

/**
 * One request of `kind` with `params` through `path`, timed (ms). Through the API, also the time
 * the API process says it spent (Server-Timing; NaN when absent).
 */
export async function timeRequest(
  t: BenchTargets,
  kind: Kind,
  path: BenchPath,
  params: Params,
): Promise<{ elapsed: number; serverMs?: number }> {
  const t0 = performance.now();
  const now = Math.floor(Date.now() / 1000);
  if (path === 'api' || path === 'apiEncoded') {
    const serverMs = await httpGet(
      t,
      kind.path,
      params,
      path === 'apiEncoded' ? BENCH_ACCEPT_ENCODING : undefined,
      kind.headers,
    );
    return { elapsed: performance.now() - t0, serverMs };
  }
  if (path === 'es') await (kind.esParams ? kind.esParams(t, params, now) : kind.es!(t, toFilters(params), now));
  else await kind.sql(t, params, now);
  return { elapsed: performance.now() - t0 };
}

// (b) raw Elasticsearch: the same requests as searchPage / searchOnce / es.count in the handlers.
async function esSearch(t: BenchTargets, body: Record<string, unknown>) {
  const res = await t.es.search(
    { index: t.index, ...body, timeout: `${t.timeoutMs}ms` },
    { requestTimeout: t.timeoutMs },
  );
  if (res.timed_out) throw new Error('elasticsearch timed out');
  return res;
}
async function esList(t: BenchTargets, q: PagedOppFilters, now: number) {
  const { query, sort } = buildOpportunityListQuery(q, now, { testChainIds: [] });
  return esSearch(t, { from: q.page * q.items, size: q.items, query, sort, track_total_hits: false });
}
async function esBins(t: BenchTargets, q: PagedOppFilters, metric: NumericField, now: number) {
  const stats = await esSearch(t, buildStatsQuery(q, metric, now, { testChainIds: [] }));
  const { min, max } = stats.aggregations!['stats'] as { min: number | null; max: number | null };
  const edges = binEdges(metric, min, max);
  if (!edges.length) return [];
  const res = await esSearch(t, buildBinsQuery(q, metric, edges, now, { testChainIds: [] }));
  return (res.aggregations!['bins'] as { buckets: { doc_count: number }[] }).buckets.map((b) => b.doc_count);
}

// (c) PostgreSQL: the same filters over opportunities + opportunity_metrics, campaigns (+ tokens) for
// status windows and the default hidden sets (point-only, test-only rewards, INVALID action).
const COLUMN: Record<string, string> = {
  apr: 'm.apr',
  tvl: 'm.tvl',
  dailyRewards: 'm.daily_rewards',
  rewards: 'm.daily_rewards',
};
function sqlWhere(p: Params, now: number): { where: string; values: unknown[] } {
  const values: unknown[] = [];
  const v = (x: unknown) => `$${values.push(x)}`;
  const w = [
    `o.action <> 'INVALID'`,
    // Hidden unless point=true: every reward token is a point token; unless test=true: every reward token is a test token.
    `EXISTS (SELECT 1 FROM campaigns c JOIN tokens t ON t.chain_id = c.distribution_chain_id AND t.address = c.reward_token WHERE c.opportunity_id = o.id AND t.type <> 'POINT')`,
    `EXISTS (SELECT 1 FROM campaigns c JOIN tokens t ON t.chain_id = c.distribution_chain_id AND t.address = c.reward_token WHERE c.opportunity_id = o.id AND NOT t.is_test)`,
  ];
  if (p['chainId']) w.push(`o.chain_id = ANY(${v(p['chainId'].split(',').map(Number))}::int[])`);
  if (p['action']) w.push(`o.action = ANY(${v(p['action'].split(','))}::text[])`);
  if (p['minimumTvl']) w.push(`m.tvl >= ${v(Number(p['minimumTvl']))}`);
  if (p['minimumApr']) w.push(`m.apr >= ${v(Number(p['minimumApr']))}`);
  if (p['status'] === 'LIVE')
    w.push(
      `EXISTS (SELECT 1 FROM campaigns c WHERE c.opportunity_id = o.id AND c.start_timestamp <= ${v(now)} AND c.end_timestamp > $${values.length})`,
    );
  if (p['search']) {
    // Word-prefix match on the target token's symbol/name and the reward symbols (the bulk of searchText).
    const re = v(`(^|[^a-z0-9])${p['search'].toLowerCase().replace(/[^a-z0-9]/g, '')}`);
    w.push(`(EXISTS (SELECT 1 FROM tokens tt WHERE tt.chain_id = o.chain_id AND tt.address = o.identifier AND lower(tt.symbol || ' ' || coalesce(tt.name, '')) ~ ${re})
      OR EXISTS (SELECT 1 FROM campaigns c JOIN tokens t ON t.chain_id = c.distribution_chain_id AND t.address = c.reward_token WHERE c.opportunity_id = o.id AND lower(t.symbol) ~ ${re}))`);
  }
  return {
    where: `FROM opportunities o JOIN opportunity_metrics m ON m.opportunity_id = o.id WHERE ${w.join('\n  AND ')}`,
    values,
  };
}
async function sqlList(t: BenchTargets, p: Params, now: number) {
  const { where, values } = sqlWhere(p, now);
  const items = Number(p['items'] ?? 20);
  const offset = Number(p['page'] ?? 0) * items;
  const order = `${COLUMN[p['sort']!]} ${p['order'] === 'asc' ? 'ASC' : 'DESC'} NULLS LAST, o.id ASC`;
  const res = await t.pg.query(
    `SELECT o.id, o.chain_id, o.type, o.identifier, o.action, m.tvl, m.apr, m.daily_rewards ${where} ORDER BY ${order} LIMIT ${items} OFFSET ${offset}`,
    values,
  );
  return res.rows;
}
async function sqlBins(t: BenchTargets, p: Params, metric: NumericField, now: number) {
  const { where, values } = sqlWhere(p, now);
  const col = COLUMN[metric]!;
  const stats = await t.pg.query<{ min: number | null; max: number | null }>(
    `SELECT min(${col}) AS min, max(${col}) AS max, count(*) ${where}`,
    values,
  );
  const edges = binEdges(metric, stats.rows[0]!.min, stats.rows[0]!.max);
  if (!edges.length) return [];
  // width_bucket over the same edges; the first bin is open below and the last open above, as in the API.
  const res = await t.pg.query<{ b: number; n: string }>(
    `SELECT width_bucket(${col}, ${`$${values.length + 1}`}::float8[]) AS b, count(*) AS n ${where} GROUP BY 1`,
    [...values, edges],
  );
  const counts = new Array<number>(edges.length - 1).fill(0);
  for (const row of res.rows) counts[Math.min(edges.length - 2, Math.max(0, row.b - 1))]! += Number(row.n);
  return counts;
}

const jittered = (base: number, jitter: number) => String(base + jitter * 0.001);

/** The mix: lists (first and a deep page), free text, count, bins on TVL and APR, a summed aggregate; every kind filtered. */
export const KINDS: Kind[] = [
  {
    name: 'list LIVE chain tvl>=100k sort apr p0',
    filterAndBins: false,
    path: '/v4/opportunities',
    params: (j) => ({
      status: 'LIVE',
      chainId: '1',
      minimumTvl: jittered(100_000, j),
      sort: 'apr',
      order: 'desc',
      page: '0',
      items: '20',
    }),
    es: (t, q, now) => esList(t, q, now),
    sql: (t, p, now) => sqlList(t, p, now),
  },
  {
    name: 'list LIVE chain tvl>=1k sort apr p150',
    filterAndBins: false,
    path: '/v4/opportunities',
    params: (j) => ({
      status: 'LIVE',
      chainId: '1',
      minimumTvl: jittered(1_000, j),
      sort: 'apr',
      order: 'desc',
      page: '150',
      items: '20',
    }),
    es: (t, q, now) => esList(t, q, now),
    sql: (t, p, now) => sqlList(t, p, now),
  },
  {
    name: 'search "usdc" LIVE sort tvl',
    filterAndBins: false,
    path: '/v4/opportunities',
    params: (j) => ({
      search: 'usdc',
      status: 'LIVE',
      minimumTvl: jittered(0, j),
      sort: 'tvl',
      order: 'desc',
      page: '0',
      items: '20',
    }),
    es: (t, q, now) => esList(t, q, now),
    sql: (t, p, now) => sqlList(t, p, now),
  },
  {
    name: 'count LIVE 2 chains POOL,LEND apr>=5',
    filterAndBins: true,
    path: '/v4/opportunities/count',
    params: (j) => ({
      status: 'LIVE',
      chainId: '42161,8453',
      action: 'POOL,LEND',
      minimumApr: '5',
      minimumTvl: jittered(0, j),
    }),
    es: async (t, q, now) =>
      (
        await t.es.count(
          { index: t.index, ...buildCountQuery(q, now, { testChainIds: [] }) },
          { requestTimeout: t.timeoutMs },
        )
      ).count,
    sql: async (t, p, now) => {
      const { where, values } = sqlWhere(p, now);
      return Number((await t.pg.query<{ n: string }>(`SELECT count(*) AS n ${where}`, values)).rows[0]!.n);
    },
  },
  {
    name: 'bins/tvl LIVE chain',
    filterAndBins: true,
    path: '/v4/opportunities/bins/tvl',
    params: (j) => ({ status: 'LIVE', chainId: '1', minimumTvl: jittered(0, j) }),
    es: (t, q, now) => esBins(t, q, 'tvl', now),
    sql: (t, p, now) => sqlBins(t, p, 'tvl', now),
  },
  {
    name: 'bins/apr LIVE POOL tvl>=10k',
    filterAndBins: true,
    path: '/v4/opportunities/bins/apr',
    params: (j) => ({ status: 'LIVE', action: 'POOL', minimumTvl: jittered(10_000, j) }),
    es: (t, q, now) => esBins(t, q, 'apr', now),
    sql: (t, p, now) => sqlBins(t, p, 'apr', now),
  },
  {
    name: 'aggregate/dailyRewards LIVE 2 chains',
    filterAndBins: true,
    path: '/v4/opportunities/aggregate/dailyRewards',
    params: (j) => ({ status: 'LIVE', chainId: '1,10', minimumTvl: jittered(1_000, j) }),
    es: async (t, q, now) =>
      (await esSearch(t, buildAggregateQuery(q, 'dailyRewards', now, { testChainIds: [] }))).aggregations,
    sql: async (t, p, now) => {
      const { where, values } = sqlWhere(p, now);
      return (await t.pg.query(`SELECT sum(m.daily_rewards) AS s ${where}`, values)).rows[0];
    },
  },
  ...CAMPAIGN_COUNT_KINDS,
];
