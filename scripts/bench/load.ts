/**
 * Load benchmark (prints figures, never a timed test): `npm run bench:load`.
 * Loads a synthetic data set (the search benchmark's generator, smaller by default) plus block
 * headers, starts the API as its own process on loopback, sets up a key-value store with a real
 * wallet login and API key, then drives the request mix of loadMix.ts at increasing rates with
 * evenly spaced arrivals (pacedLoad.ts: open loop, at most BENCH_LOAD_CONNECTIONS sockets) until a
 * step has errors, p99 > BENCH_LOAD_P99_MS or cannot reach its rate.
 * Prints the highest sustained rate, p50/p99 at it, errors and the API process's peak RSS
 * (VmHWM), and writes every step to BENCH_OUT_DIR/load.json for the report.
 * Options: BENCH_LOAD_OPPORTUNITIES=20000 BENCH_LOAD_CAMPAIGNS=100000 BENCH_LOAD_START_RPS=10
 * BENCH_LOAD_FACTOR=1.5 BENCH_LOAD_MAX_STEPS=16 BENCH_LOAD_STEP_SECONDS=10 BENCH_LOAD_CONNECTIONS=64
 * BENCH_LOAD_P99_MS=200 BENCH_SEED=42 BENCH_OUT_DIR=.data/bench
 * BENCH_LOAD_API_PROCESSES=N (#34): N API processes behind scripts/roundRobinFront.ts (in its own
 * process) instead of one reached directly; writes load-front-N.json, not load.json.
 * BENCH_DATABASE_READ_URL=postgres://…:55433/rewards_bench_load (#34): the API processes read what
 * tolerates lag from this streaming replica of BENCH_DATABASE_URL (scripts/services/pgReplica.sh up),
 * waited for until it has replayed the loaded data set; the output file name ends in -replica.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { privateKeyToAccount } from 'viem/accounts';
import { HARDHAT_TEST_KEYS } from '../../contracts/clients.js';
import { createEsClient } from '../../internal/es.js';
import { createLogger } from '../../internal/logger.js';
import { createPgPool, type PgPool } from '../../internal/pg.js';
import { deleteIndices, ensureIndices } from '../../search-mappings/aliases.js';
import { resetDatabase } from '../../test/helpers/database.js';
import { benchChainConfigs, createRandom, BENCH_CHAINS } from './searchData.js';
import { loadRewardData } from './rewardData.js';
import { rewardKinds } from './rewardKinds.js';
import { buildDistributedRollups } from './distributedRollups.js';
import { loadDataSet } from './searchLoad.js';
import { pickRequest, type MixTargets } from './loadMix.js';
import { startBenchApi } from './apiProcess.js';
import { startBenchApiFront } from './apiFront.js';
import { envPositiveNumber, percentile, benchIndexShape } from './benchParams.js';
import { runPaced } from './pacedLoad.js';
import { BENCH_READ_URL, readReplicaEnv, waitForReplica } from './readReplica.js';
import { describeCpu, snapshotCpu, type ProcessGroups } from './machineCpu.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DATABASE_URL = process.env['BENCH_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:55432/rewards_bench_load';
const ES_URL = process.env['ES_URL'] ?? 'http://127.0.0.1:59200';
const PREFIX = 'benchload';
const BACK_OFFICE_TOKEN = 'bench-load-back-office-token-0123456789';
const OPPORTUNITIES = envPositiveNumber('BENCH_LOAD_OPPORTUNITIES', 20_000);
const CAMPAIGNS = envPositiveNumber('BENCH_LOAD_CAMPAIGNS', 100_000);
const START_RPS = envPositiveNumber('BENCH_LOAD_START_RPS', 10);
const FACTOR = envPositiveNumber('BENCH_LOAD_FACTOR', 1.5);
const MAX_STEPS = envPositiveNumber('BENCH_LOAD_MAX_STEPS', 16);
const STEP_SECONDS = envPositiveNumber('BENCH_LOAD_STEP_SECONDS', 10);
const CONNECTIONS = envPositiveNumber('BENCH_LOAD_CONNECTIONS', 64);
const P99_LIMIT_MS = envPositiveNumber('BENCH_LOAD_P99_MS', 200);
const SEED = envPositiveNumber('BENCH_SEED', 42);
/** 0: one API process reached directly (the report's figures); N: N processes behind the front. */
const API_PROCESSES = Number(process.env['BENCH_LOAD_API_PROCESSES'] ?? 0);
const OUT_DIR = process.env['BENCH_OUT_DIR'] ?? `${ROOT}.data/bench`;
const logger = createLogger({ level: process.env['LOG_LEVEL'] ?? 'warn', name: 'bench-load' });

export type LoadStep = {
  targetRps: number;
  achievedRps: number;
  requests: number;
  errors: number;
  non2xx: number;
  timeouts: number;
  latency: { p50: number; p90: number; p99: number; max: number; mean: number };
  percentiles: Record<string, number>;
  ok: boolean;
  reason?: string;
  /** Per kind of the mix: the time the API says it spent (Server-Timing), apart from queueing on the way to it. */
  serverMsByKind: Record<string, { n: number; p50: number; p99: number; max: number }>;
  /** The machine's CPU over the step, by process group (machineCpu.ts describeCpu). */
  cpu?: string;
};

/** Pure: p50/p99/max of each kind's samples. */
function summarize(byKind: Map<string, number[]>): LoadStep['serverMsByKind'] {
  return Object.fromEntries(
    [...byKind].map(([kind, xs]) => {
      const sorted = [...xs].sort((a, b) => a - b);
      return [
        kind,
        { n: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted[sorted.length - 1]! },
      ];
    }),
  );
}

/** Synthetic headers: one block every 2 s per chain over the last BLOCKS blocks (block-timestamp lookups). */
async function insertBlocks(pg: PgPool, now: number, blocks = 200_000): Promise<[number, number]> {
  const first = now - 2 * blocks;
  for (const chain of BENCH_CHAINS) {
    await pg.query(
      `INSERT INTO blocks (chain_id, number, hash, parent_hash, timestamp)
      SELECT $1, n, '0x' || lpad(to_hex(n), 64, '0'), '0x' || lpad(to_hex(n - 1), 64, '0'), $2 + 2 * n FROM generate_series(1, $3) AS n`,
      [chain.id, first, blocks],
    );
    await pg
      .query(`INSERT INTO cursors (job, chain_id, block_number) VALUES ('blocks', $1, $2) ON CONFLICT DO NOTHING`, [
        chain.id,
        blocks,
      ])
      .catch(() => {});
  }
  return [first + 2, first + 2 * blocks];
}

/** Environment of the API under load: production mode, rate limits out of the way, the bench's chains (their RPCs unused). */
function apiEnv(): Record<string, string> {
  return {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    DATABASE_URL,
    ES_URL,
    ES_INDEX_PREFIX: PREFIX,
    CHAINS: JSON.stringify(benchChainConfigs()),
    BACK_OFFICE_TOKEN,
    JWT_SECRET: 'bench-load-jwt-secret-0123456789abcdef0123',
    RATE_LIMITS: '100000000,100000000,100000000,100000000',
    ...readReplicaEnv(),
  };
}

/** Peak resident set size of a process (VmHWM), in MiB. */
function peakRssMiB(pid: number): number {
  const kb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  return kb / 1024;
}

async function call(base: string, method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const res = await fetch(base + path, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status}: ${text.slice(0, 300)}`);
  return { res, json: text ? JSON.parse(text) : null };
}

/** Wallet login (SIWE), an API key, a store quota from the back office, a store and 200 entries. */
async function setUpKeyValueStore(base: string): Promise<MixTargets['kv']> {
  const account = privateKeyToAccount(HARDHAT_TEST_KEYS[0]);
  const nonce = (await call(base, 'GET', `/v4/auth/nonce/${account.address}`, {})).json as { message: string };
  const signature = await account.signMessage({ message: nonce.message });
  const login = await call(
    base,
    'POST',
    '/v4/auth/login',
    {},
    { address: account.address, message: nonce.message, signature },
  );
  const cookie = (login.res.headers.getSetCookie().find((c) => c.startsWith('jwt=')) ?? '').split(';')[0]!;
  const apiKey = (
    (await call(base, 'POST', '/v4/developer/keys/', { cookie }, { description: 'bench-load' })).json as {
      rawKey: string;
    }
  ).rawKey;
  await call(
    base,
    'POST',
    '/v4/internal/key-value-stores/quotas',
    { authorization: BACK_OFFICE_TOKEN },
    { ownerAddress: account.address.toLowerCase(), maxConfigs: 5, maxSizeLimit: 100_000, allowedTypes: ['WHITELIST'] },
  );
  const store = (
    (
      await call(
        base,
        'POST',
        '/v4/key-value-stores/self',
        { 'x-api-key': apiKey },
        { key: 'bench', type: 'WHITELIST', sizeLimit: 100_000 },
      )
    ).json as { key: string }
  ).key;
  const addresses = Array.from({ length: 200 }, (_, i) => `0x${(i + 1).toString(16).padStart(40, '0')}`);
  await call(
    base,
    'PUT',
    `/v4/key-value-stores/${encodeURIComponent(store)}/entries/batch`,
    { 'x-api-key': apiKey },
    { entries: addresses.map((address) => ({ address, value: '{"label":"x"}' })) },
  );
  return { store, apiKey, addresses };
}

/** Percentiles of the latency chart (keys as the report reads them: p97_5 is the 97.5th). */
const CHART_PERCENTILES = [1, 10, 25, 50, 75, 90, 97.5, 99, 99.9];

async function runStep(base: string, targets: MixTargets, rps: number, seed: number): Promise<LoadStep> {
  const r = createRandom(seed).next;
  let n = 0;
  const paced = await runPaced({
    base,
    rps,
    seconds: STEP_SECONDS,
    connections: CONNECTIONS,
    timeoutMs: 10_000,
    next: () => pickRequest(targets, r, ++n),
  });
  const l = paced.latencies;
  const at = (p: number) => (l.length ? Math.round(percentile(l, p)) : NaN);
  const step: LoadStep = {
    targetRps: Math.round(rps),
    achievedRps: paced.achievedRps,
    requests: paced.answered,
    errors: paced.errors,
    non2xx: paced.non2xx,
    timeouts: paced.timeouts,
    latency: {
      p50: at(50),
      p90: at(90),
      p99: at(99),
      max: l.length ? Math.round(l[l.length - 1]!) : NaN,
      mean: l.length ? Math.round(l.reduce((a, b) => a + b, 0) / l.length) : NaN,
    },
    percentiles: Object.fromEntries(CHART_PERCENTILES.map((p) => [`p${String(p).replace('.', '_')}`, at(p)])),
    ok: true,
    serverMsByKind: summarize(paced.serverMs),
  };
  if (step.errors + step.non2xx + step.timeouts > 0)
    Object.assign(step, {
      ok: false,
      reason: `${step.errors} errors, ${step.non2xx} non-2xx, ${step.timeouts} timeouts`,
    });
  else if (step.latency.p99 > P99_LIMIT_MS)
    Object.assign(step, { ok: false, reason: `p99 ${step.latency.p99} ms > ${P99_LIMIT_MS} ms` });
  else if (step.achievedRps < 0.9 * rps)
    Object.assign(step, { ok: false, reason: `reached ${step.achievedRps.toFixed(0)} req/s of ${Math.round(rps)}` });
  return step;
}

async function main(): Promise<void> {
  console.log(
    `load benchmark — ${new Date().toISOString()}, node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model}, load avg ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  await resetDatabase(DATABASE_URL);
  const es = createEsClient({ node: ES_URL, requestTimeoutMs: 120_000 });
  await deleteIndices({ es, prefix: PREFIX });
  const concrete = await ensureIndices({ es, prefix: PREFIX, logger, shape: benchIndexShape() });
  const pg = createPgPool({ connectionString: DATABASE_URL, applicationName: 'bench-load', max: 4 });
  const now = Math.floor(Date.now() / 1000);
  console.log(
    `loading ${OPPORTUNITIES} opportunities, ${CAMPAIGNS} campaigns and ${BENCH_CHAINS.length} × 200k block headers …`,
  );
  const load = await loadDataSet({
    pg,
    es,
    indices: concrete as { opportunities: string; campaigns: string },
    opportunities: OPPORTUNITIES,
    campaigns: CAMPAIGNS,
    now,
    seed: SEED,
  });
  const rewardData = await loadRewardData(pg, now, CAMPAIGNS);
  const timestampRange = await insertBlocks(pg, now);
  await pg.query('VACUUM ANALYZE');
  console.log(await buildDistributedRollups(pg));
  const opportunityIds = (
    await pg.query<{ id: string }>('SELECT id FROM opportunities ORDER BY random() LIMIT 2000')
  ).rows.map((x) => x.id);
  const campaignIds = (
    await pg.query<{ id: string }>('SELECT id FROM campaigns ORDER BY random() LIMIT 2000')
  ).rows.map((x) => x.id);
  console.log(`loaded in ${load.seconds.toFixed(0)} s`);
  await waitForReplica(pg);

  const api =
    API_PROCESSES > 0
      ? await startBenchApiFront(API_PROCESSES, apiEnv(), logger)
      : await startBenchApi(apiEnv(), logger).then((a) => ({ ...a, pids: [a.pid], frontPid: undefined }));
  // Who spends the machine's CPU at each step: the API processes, the front, the load generator
  // (ours), Elasticsearch, PostgreSQL (the replica's processes too) — on 2 cores they all compete.
  const groups: ProcessGroups = {
    ours: process.pid,
    devnets: [],
    named: {
      ...Object.fromEntries(api.pids.map((pid, i) => [`api${api.pids.length > 1 ? i + 1 : ''}`, pid])),
      ...(api.frontPid ? { front: api.frontPid } : {}),
    },
  };
  const base = api.url;
  if (API_PROCESSES > 0) console.log(`${API_PROCESSES} API process(es) behind scripts/roundRobinFront.ts at ${base}`);
  const steps: LoadStep[] = [];
  try {
    const kv = await setUpKeyValueStore(base);
    const targets: MixTargets = {
      opportunityIds,
      campaignIds,
      chainIds: BENCH_CHAINS.map((c) => c.id),
      timestampRange,
      kv,
      // Every #33 read (once some took seconds and were left out; all answer from rollups now).
      analytics: rewardKinds(rewardData, BACK_OFFICE_TOKEN),
    };
    await runStep(base, targets, START_RPS, SEED); // warm-up, not reported
    console.log(
      `\nsteps of ${STEP_SECONDS} s, ${CONNECTIONS} connections, evenly spaced arrivals, open loop (latency from each request's scheduled time); stop at errors, p99 > ${P99_LIMIT_MS} ms or < 90 % of the rate`,
    );
    console.log(
      `${'target'.padStart(7)} ${'achieved'.padStart(9)} ${'p50'.padStart(7)} ${'p90'.padStart(7)} ${'p99'.padStart(7)} ${'max'.padStart(7)} errors  (req/s, ms)`,
    );
    for (let i = 0, rps = START_RPS; i < MAX_STEPS; i++, rps *= FACTOR) {
      const cpu0 = snapshotCpu(groups);
      const step = await runStep(base, targets, rps, SEED + i + 1);
      step.cpu = describeCpu(cpu0, snapshotCpu(groups));
      steps.push(step);
      console.log(
        `${String(step.targetRps).padStart(7)} ${step.achievedRps.toFixed(0).padStart(9)} ${String(step.latency.p50).padStart(7)} ${String(step.latency.p90).padStart(7)} ${String(step.latency.p99).padStart(7)} ${String(step.latency.max).padStart(7)} ${String(step.errors + step.non2xx + step.timeouts).padStart(6)}${step.ok ? '' : `  ← ${step.reason}`}`,
      );
      if (!step.ok) break;
    }
    const best = [...steps].reverse().find((s) => s.ok);
    const rss = Math.max(...api.pids.map(peakRssMiB));
    for (const step of [best, steps.find((s) => !s.ok)].filter((s): s is LoadStep => s !== undefined)) {
      console.log(
        `\ntime inside the API per kind at ${step.targetRps} req/s (Server-Timing; the rest of a request's latency is queueing before it reaches the API):`,
      );
      console.log(`  ${step.cpu}`);
      for (const [kind, s] of Object.entries(step.serverMsByKind))
        console.log(
          `  ${kind.padEnd(20)} n ${String(s.n).padStart(5)}  p50 ${s.p50.toFixed(1).padStart(6)}  p99 ${s.p99.toFixed(1).padStart(6)}  max ${s.max.toFixed(1).padStart(6)} ms`,
        );
    }
    console.log(
      best
        ? `\nhighest sustained rate: ${best.achievedRps.toFixed(0)} req/s (target ${best.targetRps}); p50 ${best.latency.p50} ms, p99 ${best.latency.p99} ms, errors ${best.errors + best.non2xx + best.timeouts}; API peak RSS ${rss.toFixed(0)} MiB${best === steps[steps.length - 1] ? `\n  (every step held, up to the last of BENCH_LOAD_MAX_STEPS=${MAX_STEPS}: the ceiling lies higher)` : ''}`
        : `\nno step sustained: the first rate (${START_RPS} req/s) already failed (${steps[0]?.reason}); API peak RSS ${rss.toFixed(0)} MiB`,
    );
    console.log(
      `load avg at the end: ${os
        .loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')} (a busy machine lowers these figures)`,
    );
    mkdirSync(OUT_DIR, { recursive: true });
    writeFileSync(
      `${OUT_DIR}/${API_PROCESSES > 0 ? `load-front-${API_PROCESSES}` : 'load'}${BENCH_READ_URL ? '-replica' : ''}.json`,
      JSON.stringify(
        {
          at: new Date().toISOString(),
          opportunities: OPPORTUNITIES,
          campaigns: CAMPAIGNS,
          apiProcesses: API_PROCESSES || null,
          readReplica: BENCH_READ_URL !== undefined,
          connections: CONNECTIONS,
          stepSeconds: STEP_SECONDS,
          p99LimitMs: P99_LIMIT_MS,
          steps,
          best: best ?? null,
          peakRssMiB: rss,
          loadAvg: os.loadavg(),
        },
        null,
        2,
      ),
    );
  } finally {
    await api.close();
    await pg.end();
    await es.close();
  }
}

try {
  await main();
} catch (error) {
  console.error(
    `load benchmark failed: ${(error instanceof Error ? (error.stack ?? error.message) : String(error)).split('\n').slice(0, 6).join('\n')}`,
  );
  process.exit(1);
}
process.exit(0);
