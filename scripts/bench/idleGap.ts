/**
 * Why bench:search does not interleave PostgreSQL with the API and raw Elasticsearch (a script
 * that prints figures): `npm run bench:idle-gap`, on the data the last `npm run bench:search` left
 * (database rewards_bench_search, index prefix benchsearch). For each idle gap it sends the count
 * kind of the mix alternately through the API (its own process, production stack) and raw to
 * Elasticsearch, sleeping the gap before each request, and prints both p50s and their difference;
 * then the same through a bare forwarding server (bareForwarder.ts: node:http and the ES client
 * only), the floor any API in front of Elasticsearch starts from on this machine.
 * Options: BENCH_IDLE_GAPS_MS=0,2,20 BENCH_REQUESTS=600
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import { once } from 'node:events';
import { createEsClient, indexNames } from '../../internal/es.js';
import { createLogger } from '../../internal/logger.js';
import { createPgPool } from '../../internal/pg.js';
import { startBenchApi, type BenchApi } from './apiProcess.js';
import { findFreePort } from '../../contracts/devnet.js';
import { envPositiveInt, percentile } from './benchParams.js';
import { benchChainConfigs } from './searchData.js';
import { KINDS, timeRequest, type BenchPath, type BenchTargets } from './searchQueries.js';

const DATABASE_URL = process.env['BENCH_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:55432/rewards_bench_search';
const ES_URL = process.env['ES_URL'] ?? 'http://127.0.0.1:59200';
const PREFIX = 'benchsearch';
const REQUESTS = envPositiveInt('BENCH_REQUESTS', 600);
const GAPS = (process.env['BENCH_IDLE_GAPS_MS'] ?? '0,2,20').split(',').map(Number);
if (GAPS.some((g) => !Number.isFinite(g) || g < 0))
  throw new Error('BENCH_IDLE_GAPS_MS must list non-negative numbers of milliseconds');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const kind = KINDS.find((k) => k.path === '/v4/opportunities/count')!;

/** bareForwarder.ts in its own process, like the API. */
async function startBareForwarder(index: string): Promise<Pick<BenchApi, 'url' | 'close'>> {
  const port = await findFreePort({ from: 42000, to: 42999 });
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'scripts/bench/bareForwarder.ts', String(port), ES_URL, index],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await Promise.race([
    once(child.stdout!, 'data'),
    once(child, 'exit').then(([code]) => {
      throw new Error(`bare forwarder exited with ${code} before it was ready`);
    }),
  ]);
  return { url: `http://127.0.0.1:${port}`, close: async () => void child.kill() };
}

/** Alternating API (or forwarder) and raw ES requests with `gap` ms idle before each; p50s. */
async function measureGap(t: BenchTargets, gap: number, nextJitter: () => number) {
  const api: number[] = [];
  const raw: number[] = [];
  const server: number[] = [];
  for (let i = -REQUESTS / 10; i < REQUESTS; i++) {
    for (const path of (i % 2 === 0 ? ['api', 'es'] : ['es', 'api']) as BenchPath[]) {
      if (gap) await sleep(gap);
      const { elapsed, serverMs } = await timeRequest(t, kind, path, kind.params(nextJitter()));
      if (i < 0) continue;
      (path === 'api' ? api : raw).push(elapsed);
      if (serverMs !== undefined && Number.isFinite(serverMs)) server.push(serverMs);
    }
  }
  const [a, r, sv] = [api, raw, server].map((s) =>
    percentile(
      s.sort((x, y) => x - y),
      50,
    ),
  ) as [number, number, number];
  return `API p50 ${a.toFixed(2)} ms (in its process ${sv.toFixed(2)}), raw ES p50 ${r.toFixed(2)} ms, API − ES ${(a - r).toFixed(2)} ms (${(a / r).toFixed(2)}×)`;
}

async function main(): Promise<void> {
  const es = createEsClient({ node: ES_URL, requestTimeoutMs: 30_000 });
  const index = indexNames(PREFIX, 'opportunities').read;
  const docs = await es.count({ index }).then(
    (r) => r.count,
    () => 0,
  );
  if (!docs) throw new Error(`no ${index} documents: run npm run bench:search first`);
  const pg = createPgPool({ connectionString: DATABASE_URL, applicationName: 'bench-idle-gap', max: 1 });
  const env = {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    DATABASE_URL,
    ES_URL,
    ES_INDEX_PREFIX: PREFIX,
    CHAINS: JSON.stringify(benchChainConfigs()),
    JWT_SECRET: 'bench-idle-gap-jwt-secret-0123456789abcdef',
    RATE_LIMITS: '100000000,100000000,100000000,100000000',
  };
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  console.log(
    `idle-gap probe: ${kind.name}, ${docs} opportunities, ${REQUESTS} requests per path and gap (after ${REQUESTS / 10} warm-up), alternating API and raw ES`,
  );
  let jitter = 0;
  try {
    for (const [label, start] of [
      ['our API (production stack)', () => startBenchApi(env, createLogger({ level: 'warn', name: 'bench-idle-gap' }))],
      ['bare forwarder (node:http + ES client only)', () => startBareForwarder(index)],
    ] as const) {
      const server = await start();
      console.log(`  ${label}:`);
      try {
        const t: BenchTargets = { apiUrl: server.url, agent, es, pg, index, timeoutMs: 30_000 };
        for (const gap of GAPS)
          console.log(
            `    idle ${String(gap).padStart(3)} ms before each request: ${await measureGap(t, gap, () => ++jitter)}`,
          );
      } finally {
        await server.close();
      }
    }
  } finally {
    agent.destroy();
    await pg.end();
    await es.close();
  }
}

try {
  await main();
} catch (error) {
  console.error(`benchmark failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
process.exit(0);
