/**
 * Read API benchmark (a script that prints figures, never a timed test): `npm run bench:search`.
 * Loads synthetic opportunities and campaigns (seeded, skewed distributions) into Elasticsearch and
 * the same rows into PostgreSQL, then in one run measures p50/p99 of a mix of opportunity lists,
 * free-text search, count, bins and aggregates (a) through our API over HTTP, (b) as the raw
 * Elasticsearch requests our API sends, (c) as equivalent SQL on PostgreSQL, and prints the ratios
 * API/raw-ES and PostgreSQL/API against the targets (API ≤ 1.3× raw ES at p50; PostgreSQL ≥ 5×
 * slower than the API on filter+bins). Uses its own database (rewards_bench_search) and index
 * prefix (benchsearch), both reset at the start.
 * Options: BENCH_OPPORTUNITIES=200000 BENCH_CAMPAIGNS=1000000 BENCH_REQUESTS=300 BENCH_WARMUP=30 BENCH_SEED=42
 * BENCH_DATABASE_READ_URL (a streaming replica the API reads from, scripts/bench/readReplica.ts)
 * BENCH_MAX_MEASURE_SECONDS (unset: no cap) BENCH_KINDS (a regular expression: only the matching kinds) BENCH_INDEX_PREFIX=benchsearch BENCH_ACCEPT_ENCODING (e.g. `gzip, br`: the
 * API is also measured with that header, answers compressed as a browser gets them, interleaved with the
 * identity requests and raw ES in the same rounds; unset: identity only)
 */
import http from 'node:http';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../internal/config.js';
import { createEsClient, indexNames } from '../../internal/es.js';
import { createLogger } from '../../internal/logger.js';
import { createPgPool } from '../../internal/pg.js';
import { assertServerVersion, deleteIndices, ensureIndices } from '../../search-mappings/aliases.js';
import { resetDatabase } from '../../test/helpers/database.js';
import { startBenchApi } from './apiProcess.js';
import { readReplicaEnv, waitForReplica } from './readReplica.js';
import { envPositiveInt, percentile, benchIndexShape } from './benchParams.js';
import { BENCH_CHAINS, benchChainConfigs } from './searchData.js';
import { CAMPAIGN_COUNT_KINDS } from './campaignCountKinds.js';
import { loadRewardData } from './rewardData.js';
import { partialRunBody, readReportSection, writeReportSection } from './reportSection.js';
import { rewardKinds } from './rewardKinds.js';
import { buildDistributedRollups } from './distributedRollups.js';
import { loadDataSet } from './searchLoad.js';
import {
  BENCH_ACCEPT_ENCODING,
  hasPath,
  KINDS as SEARCH_KINDS,
  timeRequest,
  toFilters,
  type BenchPath,
  type BenchTargets,
  type Kind,
} from './searchQueries.js';

const DATABASE_URL = process.env['BENCH_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:55432/rewards_bench_search';
const ES_URL = process.env['ES_URL'] ?? 'http://127.0.0.1:59200';
const PREFIX = process.env['BENCH_INDEX_PREFIX'] ?? 'benchsearch';
const OPPORTUNITIES = envPositiveInt('BENCH_OPPORTUNITIES', 200_000);
const CAMPAIGNS = envPositiveInt('BENCH_CAMPAIGNS', 1_000_000);
const REQUESTS = envPositiveInt('BENCH_REQUESTS', 300);
const WARMUP = envPositiveInt('BENCH_WARMUP', 30);
const SEED = envPositiveInt('BENCH_SEED', 42);
/** Optional cap on the measuring phase; fewer rounds than BENCH_REQUESTS are then reported as such. */
const MAX_MEASURE_SECONDS = process.env['BENCH_MAX_MEASURE_SECONDS']
  ? envPositiveInt('BENCH_MAX_MEASURE_SECONDS', 1)
  : Infinity;
const TIMEOUT_MS = 30_000;
const REPORT_FILE = fileURLToPath(new URL('../../docs/benchmarks/report.md', import.meta.url));
const BACK_OFFICE_TOKEN = 'bench-search-back-office-token-0123456789';
/** Optional: only the kinds whose name matches this regular expression (BENCH_KINDS). */
const ONLY = process.env['BENCH_KINDS'] ? new RegExp(process.env['BENCH_KINDS']) : null;
const PATHS: readonly BenchPath[] = ['api', 'es', 'pg'];
/** Paths of the first phase: the API (also compressed, with BENCH_ACCEPT_ENCODING) and raw Elasticsearch. */
const PHASE_ONE: BenchPath[] = BENCH_ACCEPT_ENCODING ? ['api', 'apiEncoded', 'es'] : ['api', 'es'];
type Path = BenchPath;

/** Indexes a fair PostgreSQL competitor would add for these queries (bench database only). */
const PG_INDEXES = [
  'CREATE INDEX bench_campaigns_opp_window_idx ON campaigns (opportunity_id, start_timestamp, end_timestamp) INCLUDE (distribution_chain_id, reward_token)',
  'CREATE INDEX bench_opportunities_chain_action_idx ON opportunities (chain_id, action)',
  'CREATE INDEX bench_opportunities_action_idx ON opportunities (action)',
  'CREATE INDEX bench_metrics_apr_idx ON opportunity_metrics (apr DESC) INCLUDE (tvl, daily_rewards)',
  'CREATE INDEX bench_metrics_tvl_idx ON opportunity_metrics (tvl DESC) INCLUDE (apr, daily_rewards)',
];

const logger = createLogger({ level: process.env['LOG_LEVEL'] ?? 'warn', name: 'bench-search' });
const ms = (x: number) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
const geomean = (xs: number[]) => Math.exp(xs.reduce((s, x) => s + Math.log(x), 0) / xs.length);

type Samples = Record<Path | 'apiServer', number[]>;

/**
 * Two phases, each a warm-up then REQUESTS rounds over every kind: (1) the API and raw
 * Elasticsearch, back to back and strictly alternating, the first of the two swapped every round; (2)
 * PostgreSQL alone. They are not interleaved with PostgreSQL because on this kind of machine a
 * process that sat idle answers its next request slower, and the more processes a request
 * crosses the more it pays (`npm run bench:idle-gap`, 200k opportunities, count kind: with 0 and
 * 20 ms idle before each request, raw ES p50 2.81 → 4.36 ms, API p50 4.08 → 6.04 ms): a
 * PostgreSQL query of 15–1,000 ms right before a request made that request cold, more so the
 * API's, which crosses two processes. Within a phase every path meets the same steady traffic.
 */
async function measure(t: BenchTargets, kinds: readonly Kind[]): Promise<Map<string, Samples>> {
  const samples = new Map(
    kinds.map((k) => [
      k.name,
      {
        api: [] as number[],
        apiEncoded: [] as number[],
        es: [] as number[],
        pg: [] as number[],
        apiServer: [] as number[],
      },
    ]),
  );
  let jitter = 0;
  let m0 = performance.now();
  for (const [label, paths] of [
    ['API and raw ES', PHASE_ONE],
    ['PostgreSQL', ['pg']],
  ] as [string, Path[]][]) {
    const t0 = performance.now();
    for (let round = -WARMUP; round < REQUESTS; round++) {
      if (round === 0) m0 = performance.now();
      if (round > 0 && (performance.now() - m0) / 1000 > MAX_MEASURE_SECONDS) {
        console.log(
          `  ${label}: measuring stopped by BENCH_MAX_MEASURE_SECONDS after ${round} rounds (of ${REQUESTS})`,
        );
        break;
      }
      for (const kind of kinds) {
        // Strictly alternating (API, ES, API, ES … or ES, API, ES, API …): each path waits the same one request of the other between two of its own.
        // With three paths (API identity, API compressed, ES), each round starts with the next one.
        const order =
          paths.length === 3
            ? [...paths.slice((round + WARMUP) % 3), ...paths.slice(0, (round + WARMUP) % 3)]
            : (round + WARMUP) % 2 === 0
              ? paths
              : [...paths].reverse();
        for (const path of order) {
          if (!hasPath(kind, path)) continue;
          // Every request gets its own jitter, so no two share a body (no request-cache hit).
          const { elapsed, serverMs } = await timeRequest(t, kind, path, kind.params(++jitter));
          if (round < 0) continue;
          samples.get(kind.name)![path].push(elapsed);
          if (path === 'api' && serverMs !== undefined && Number.isFinite(serverMs))
            samples.get(kind.name)!.apiServer.push(serverMs);
        }
      }
      if ((round + WARMUP) % 10 === 0) {
        const done = (round + WARMUP + 1) / (REQUESTS + WARMUP);
        const s = (performance.now() - t0) / 1000;
        process.stderr.write(
          `  ${label}: ${round < 0 ? 'warm-up' : 'measure'} round ${round + WARMUP + 1}/${REQUESTS + WARMUP}, ETA ${(s / done - s).toFixed(0)}s   \r`,
        );
      }
    }
    process.stderr.write('\n');
  }
  return samples;
}

/** Cross-checks the three paths once at a fixed `now`: counts and bins must agree (a benchmark of different answers is worthless). */
async function crossCheck(t: BenchTargets): Promise<string[]> {
  const notes: string[] = [];
  const now = Math.floor(Date.now() / 1000);
  for (const kind of SEARCH_KINDS.filter((k) => k.filterAndBins && !k.path.includes('aggregate'))) {
    const params = kind.params(0);
    const [es, pg] = [await kind.es!(t, toFilters(params), now), await kind.sql(t, params, now)];
    if (JSON.stringify(es) !== JSON.stringify(pg))
      notes.push(`${kind.name}: ES ${JSON.stringify(es)} ≠ PostgreSQL ${JSON.stringify(pg)}`);
  }
  return notes;
}

async function main(): Promise<void> {
  const es = createEsClient({ node: ES_URL, requestTimeoutMs: TIMEOUT_MS });
  const esVersion = await assertServerVersion(es);
  console.log(`search benchmark — ${new Date().toISOString()}`);
  console.log(
    `machine: ${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB RAM, load avg ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );

  await resetDatabase(DATABASE_URL);
  await deleteIndices({ es, prefix: PREFIX });
  const concrete = await ensureIndices({ es, prefix: PREFIX, logger, shape: benchIndexShape() });
  const pg = createPgPool({ connectionString: DATABASE_URL, applicationName: 'bench-search', max: 4 });
  const pgVersion = (await pg.query<{ server_version: string }>('SHOW server_version')).rows[0]!.server_version;
  const pgSettings = (
    await pg.query<{ name: string; setting: string }>(
      `SELECT name, current_setting(name) AS setting FROM pg_settings WHERE name IN ('shared_buffers', 'work_mem', 'max_parallel_workers_per_gather')`,
    )
  ).rows;
  const esNode = (await es.nodes.stats({ metric: 'jvm' })) as unknown as {
    nodes: Record<string, { jvm: { mem: { heap_max_in_bytes: number } } }>;
  };
  const heap = Object.values(esNode.nodes)[0]?.jvm.mem.heap_max_in_bytes ?? 0;
  console.log(
    `versions: node ${process.version}, Elasticsearch ${esVersion} (heap ${(heap / 2 ** 20).toFixed(0)} MiB), PostgreSQL ${pgVersion} (${pgSettings.map((s) => `${s.name}=${s.setting}`).join(', ')})`,
  );

  console.log(`\nloading ${OPPORTUNITIES} opportunities and ${CAMPAIGNS} campaigns (seed ${SEED}) …`);
  const now = Math.floor(Date.now() / 1000);
  const load = await loadDataSet({
    pg,
    es,
    indices: concrete,
    opportunities: OPPORTUNITIES,
    campaigns: CAMPAIGNS,
    now,
    seed: SEED,
  });
  const rewardData = await loadRewardData(pg, now, CAMPAIGNS);
  console.log(
    `reward data in ${rewardData.seconds.toFixed(0)} s: ${rewardData.trees} trees, ${rewardData.breakdownVersions} breakdown versions, ${rewardData.leafVersions} leaf versions, ${rewardData.claims} claims; ${rewardData.bigCampaigns.length} campaigns of 72,000 recipients`,
  );
  const kinds = [...SEARCH_KINDS, ...rewardKinds(rewardData, BACK_OFFICE_TOKEN)].filter(
    (k) => !ONLY || ONLY.test(k.name),
  );
  const i0 = performance.now();
  for (const sql of PG_INDEXES) await pg.query(sql);
  await pg.query('VACUUM ANALYZE');
  const indexSeconds = (performance.now() - i0) / 1000;
  console.log(await buildDistributedRollups(pg));
  const esStats = await es.indices.stats({
    index: `${concrete.opportunities},${concrete.campaigns}`,
    metric: 'docs,store,segments',
  });
  const sizes = await pg.query<{ t: string; rows: string; size: string }>(
    `SELECT relname AS t, n_live_tup::text AS rows, pg_size_pretty(pg_total_relation_size(relid)) AS size FROM pg_stat_user_tables WHERE relname IN ('opportunities', 'opportunity_metrics', 'campaigns', 'tokens') ORDER BY relname`,
  );
  const statuses = await es.search({
    index: concrete.opportunities,
    size: 0,
    aggs: { s: { terms: { field: 'status' } } },
  });
  console.log(
    `loaded in ${load.seconds.toFixed(0)} s (${((load.opportunities + load.campaigns) / load.seconds).toFixed(0)} rows/s), PostgreSQL indexes + VACUUM ANALYZE ${indexSeconds.toFixed(0)} s`,
  );
  console.log(
    `data: ${load.opportunities} opportunities, ${load.campaigns} campaigns (max ${load.maxCampaignsPerOpportunity} per opportunity; ${load.nestedWindows} nested campaign windows), ${BENCH_CHAINS.length} chains`,
  );
  console.log(
    `  opportunity status at load: ${(statuses.aggregations!['s'] as { buckets: { key: string; doc_count: number }[] }).buckets.map((b) => `${b.key} ${b.doc_count}`).join(', ')}`,
  );
  for (const [index, s] of Object.entries(esStats.indices ?? {})) {
    const docs = (await es.count({ index })).count;
    console.log(
      `  ES ${index}: ${docs} documents, ${((s.primaries?.store?.size_in_bytes ?? 0) / 2 ** 20).toFixed(0)} MiB, ${s.primaries?.segments?.count} segments`,
    );
  }
  for (const r of sizes.rows) console.log(`  PG ${r.t}: ${r.rows} rows, ${r.size} with indexes`);
  console.log(
    `  PostgreSQL indexes added for the bench (besides the migrations' own):\n${PG_INDEXES.map((s) => `    ${s};`).join('\n')}`,
  );

  // The production middleware stack, rate limiting included, with limits the sequential bench never reaches.
  const apiEnv = {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    DATABASE_URL,
    ES_URL,
    ES_INDEX_PREFIX: PREFIX,
    CHAINS: JSON.stringify(benchChainConfigs()),
    JWT_SECRET: 'bench-search-jwt-secret-0123456789abcdef012',
    RATE_LIMITS: '100000000,100000000,100000000,100000000',
    BACK_OFFICE_TOKEN,
    ...readReplicaEnv(),
  };
  await waitForReplica(pg);
  const config = loadConfig({ ...apiEnv, HOST: '127.0.0.1', PORT: '0' });
  const api = await startBenchApi(apiEnv, logger);
  console.log(
    `\nAPI under test: ${api.mode === 'process' ? 'its own process (node --import tsx api/server.ts), as in production' : 'inside the bench process (BENCH_API_PROCESS=same)'}`,
  );
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const targets: BenchTargets = {
    apiUrl: api.url,
    agent,
    es,
    pg,
    index: indexNames(PREFIX, 'opportunities').read,
    timeoutMs: config.esRequestTimeoutMs,
  };
  try {
    const mismatches = await crossCheck(targets);
    console.log(
      mismatches.length
        ? `\ncross-check: MISMATCH\n  ${mismatches.join('\n  ')}`
        : '\ncross-check: count and bins agree between Elasticsearch and PostgreSQL',
    );

    // The chains context every read route needs (listChains counts live campaigns per chain); the API refreshes it in the background (api/chainRecords.ts).
    const ctx: number[] = [];
    for (let i = 0; i < 50; i++) {
      const t0 = performance.now();
      await pg.query(
        `SELECT c.*, (SELECT count(*) FROM campaigns k WHERE k.compute_chain_id = c.id AND k.start_timestamp <= $2 AND k.end_timestamp > $2) AS live FROM chains c WHERE c.id = ANY($1::int[]) ORDER BY c.id`,
        [BENCH_CHAINS.map((c) => c.id), Math.floor(Date.now() / 1000)],
      );
      ctx.push(performance.now() - t0);
    }
    ctx.sort((a, b) => a - b);

    console.log(`\nAPI requests' Accept-Encoding: ${BENCH_ACCEPT_ENCODING ?? '(none: identity)'}`);
    console.log(
      `\nmeasuring: ${WARMUP} warm-up + ${REQUESTS} measured requests per kind and path, sequential (one in flight), ${kinds.length} kinds; API and raw ES alternating back to back, then PostgreSQL …`,
    );
    const samples = await measure(targets, kinds);
    printResults(samples, ctx, kinds);
  } finally {
    agent.destroy();
    await api.close();
    await pg.end();
    await es.close();
  }
}

/**
 * The #33 reads' section of docs/benchmarks/report.md (replaced in place at each run), with this run's
 * command line. A run of some kinds only (BENCH_KINDS) replaces their rows and keeps the others, with the
 * full run's line and a line for this one.
 */
function writeRunReport(rows: string[], samples: number): void {
  const heading = 'Reads of #33 (bench:search)';
  const env = Object.entries(process.env)
    .filter(([k]) => k.startsWith('BENCH_'))
    .map(([k, v]) => `${k}=${v}`)
    .sort();
  const run = `\`${[...env, 'npm run bench:search'].join(' ')}\` — ${new Date().toISOString().slice(0, 10)}, ${OPPORTUNITIES} opportunities, ${CAMPAIGNS} campaigns, ${samples} measured requests per kind, sequential, ${os.cpus().length} cores (load avg at the end ${os.loadavg()[0]!.toFixed(1)}). Reward data: scripts/bench/rewardData.ts; PostgreSQL column: the same figure recomputed without the rollups (scripts/bench/rewardKinds.ts).`;
  const head = [
    '| kind | route | API p50 | API p95 | API p99 | PG p50 | p95 ≤ 50 ms |',
    '|---|---|---:|---:|---:|---:|---|',
  ];
  const previous = ONLY ? readReportSection(REPORT_FILE, heading) : null;
  writeReportSection(
    REPORT_FILE,
    heading,
    previous
      ? partialRunBody(previous, `Rows of the kinds matching \`BENCH_KINDS\` measured again: ${run}`, head, rows)
      : [run, '', ...head, ...rows].join('\n'),
  );
}

const sampleCount = (samples: Map<string, Samples>) => Math.max(...[...samples.values()].map((s) => s.api.length));

function printResults(samples: Map<string, Samples>, ctx: number[], kinds: readonly Kind[]): void {
  const rows: { kind: Kind; p50: Record<Path | 'apiServer', number>; p99: Record<Path | 'apiServer', number> }[] = [];
  for (const kind of kinds) {
    const s = samples.get(kind.name)!;
    const p50 = {} as Record<Path | 'apiServer', number>;
    const p99 = {} as Record<Path | 'apiServer', number>;
    for (const path of [...PATHS, 'apiEncoded', 'apiServer'] as const) {
      const sorted = [...s[path]].sort((a, b) => a - b);
      p50[path] = sorted.length ? percentile(sorted, 50) : NaN;
      p99[path] = sorted.length ? percentile(sorted, 99) : NaN;
    }
    rows.push({ kind, p50, p99 });
  }
  const w = Math.max(...kinds.map((k) => k.name.length));
  const col = (x: string) => x.padStart(16);
  console.log(
    `\n${'query kind'.padEnd(w)} ${col('API p50/p99')} ${col('raw ES p50/p99')} ${col('PG p50/p99')} ${'API/ES'.padStart(7)} ${'PG/API'.padStart(7)}   (ms)`,
  );
  for (const r of rows) {
    const cell = (p: Path) => col(`${ms(r.p50[p])} / ${ms(r.p99[p])}`);
    console.log(
      `${r.kind.name.padEnd(w)} ${cell('api')} ${cell('es')} ${cell('pg')} ${(r.p50.api / r.p50.es).toFixed(2).padStart(7)} ${(r.p50.pg / r.p50.api).toFixed(1).padStart(7)}${r.kind.filterAndBins ? ' *' : ''}`,
    );
  }
  console.log('  * filter+bins kinds (count, bins, aggregate): the PostgreSQL/API target applies to them');
  // Issue #33's rule: each new route's p95 through the API ≤ 50 ms.
  console.log(`\n${'API p95 (target ≤ 50 ms, #33)'.padEnd(w)} ${col('API p95')}`);
  const report: string[] = [];
  for (const r of rows) {
    const sorted = [...samples.get(r.kind.name)!.api].sort((a, b) => a - b);
    const p95 = sorted.length ? percentile(sorted, 95) : NaN;
    console.log(`${r.kind.name.padEnd(w)} ${col(ms(p95))}${p95 > 50 ? '  OVER' : ''}`);
    if (!SEARCH_KINDS.slice(0, -CAMPAIGN_COUNT_KINDS.length).includes(r.kind))
      report.push(
        `| ${r.kind.name} | \`${r.kind.path}\` | ${ms(r.p50.api)} | ${ms(p95)} | ${ms(r.p99.api)} | ${ms(r.p50.pg)} | ${p95 <= 50 ? 'yes' : '**no**'} |`,
      );
  }
  if (report.length) writeRunReport(report, sampleCount(samples));
  // Where the API's extra time goes (differences of medians, so approximate): inside the API process
  // (its Server-Timing, minus the raw ES time of the same requests) and outside it (the extra HTTP hop:
  // the bench's client, the loopback socket and waking the API process).
  console.log(
    `\n${'API overhead at p50'.padEnd(w)} ${col('API − raw ES')} ${col('in API process')} ${col('hop')}   (ms; in-process = Server-Timing p50 − raw ES p50)`,
  );
  for (const r of rows) {
    console.log(
      `${r.kind.name.padEnd(w)} ${col(ms(r.p50.api - r.p50.es))} ${col(ms(r.p50.apiServer - r.p50.es))} ${col(ms(r.p50.api - r.p50.apiServer))}`,
    );
  }
  console.log(
    `  chains-context query (listChains; the API refreshes it in the background at most every 2 s, off the request path) alone p50 ${ms(percentile(ctx, 50))} ms, p99 ${ms(percentile(ctx, 99))} ms`,
  );

  // Kinds without a raw Elasticsearch request (#33's PostgreSQL rollups) have no ratio.
  const apiEs = rows.filter((r) => Number.isFinite(r.p50.es)).map((r) => r.p50.api / r.p50.es);
  const fb = rows.filter((r) => r.kind.filterAndBins);
  const pgApi = fb.map((r) => r.p50.pg / r.p50.api);
  const apiEsAll = geomean(apiEs);
  console.log(
    `\nAPI / raw ES at p50: geometric mean ${apiEsAll.toFixed(2)}× (per kind ${Math.min(...apiEs).toFixed(2)}–${Math.max(...apiEs).toFixed(2)}×); target ≤ 1.3×: ${apiEsAll <= 1.3 ? 'MET' : 'NOT MET'}${apiEs.every((x) => x <= 1.3) ? ' (every kind)' : ` (${apiEs.filter((x) => x > 1.3).length}/${apiEs.length} kinds above 1.3×)`}`,
  );
  if (BENCH_ACCEPT_ENCODING) {
    const encodedEs = rows.map((r) => r.p50.apiEncoded / r.p50.es);
    const encodedApi = rows.map((r) => r.p50.apiEncoded / r.p50.api);
    console.log(
      `API with Accept-Encoding: ${BENCH_ACCEPT_ENCODING} / raw ES at p50: geometric mean ${geomean(encodedEs).toFixed(2)}× (per kind ${Math.min(...encodedEs).toFixed(2)}–${Math.max(...encodedEs).toFixed(2)}×); compressed / identity API p50: ${geomean(encodedApi).toFixed(3)}× (per kind ${rows.map((r, i) => `${r.kind.name.split(' ')[0]} ${encodedApi[i]!.toFixed(2)}`).join(', ')})`,
    );
  }
  if (pgApi.length)
    console.log(
      `PostgreSQL / API at p50 on filter+bins: geometric mean ${geomean(pgApi).toFixed(1)}× (per kind ${Math.min(...pgApi).toFixed(1)}–${Math.max(...pgApi).toFixed(1)}×); target ≥ 5×: ${pgApi.every((x) => x >= 5) ? 'MET (every kind)' : geomean(pgApi) >= 5 ? `MET on the mean, ${pgApi.filter((x) => x < 5).length} kind(s) below 5×` : 'NOT MET'}`,
    );
  console.log(
    `load avg at the end: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} (another process busy on the machine makes the figures noisy)`,
  );
}

try {
  await main();
} catch (error) {
  console.error(
    `benchmark failed: ${(error instanceof Error ? (error.stack ?? error.message) : String(error)).split('\n').slice(0, 6).join('\n')}`,
  );
  process.exit(1);
}
process.exit(0);
