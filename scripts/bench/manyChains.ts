/**
 * Many chains, many processes (a script that prints figures, never a timed test):
 * `npm run bench:many-chains`. BENCH_CHAINS devnets each hold BENCH_CAMPAIGNS_PER_CHAIN campaigns
 * behind an RPC forwarder adding BENCH_RPC_LATENCY_MS per call (a remote node, not a local one);
 * for each line of the plan, fresh storage and that many scheduler processes (blocks and campaigns
 * jobs every second, follow mode off) index them, timed from the spawn until every campaign row is
 * in PostgreSQL and every document searchable. Also prints one chain answering BENCH_SLOW_MS per
 * call: how long the other chains take meanwhile, and, in follow mode, their event → searchable
 * p50/p95 per chain over BENCH_FOLLOW_SAMPLES campaigns.
 * Uses its own database (rewards_bench) and index prefix (bench-many).
 * Options: BENCH_CHAINS=4 BENCH_CAMPAIGNS_PER_CHAIN=2000 BENCH_RPC_LATENCY_MS=50 BENCH_SLOW_MS=2000
 *   BENCH_FOLLOW_SAMPLES=30 BENCH_FOLLOW_ONLY=1 (only the follow-mode figures) BENCH_VERBOSE=1 (each sample's time)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createEsClient, indexNames } from '../../internal/es.js';
import { createLogger } from '../../internal/logger.js';
import { deleteIndices, ensureIndices } from '../../search-mappings/aliases.js';
import { resetDatabase } from '../../test/helpers/database.js';
import { startFlakyRpcProxy, type FlakyRpcProxy } from '../../test/helpers/flakyRpcProxy.js';
import { percentile, benchIndexShape } from './benchParams.js';
import { benchChainConfig, createCampaigns, startCampaignDevnet, type CampaignDevnet } from './campaignDevnet.js';
import { waitForRowCount } from './waitForRowCount.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DATABASE_URL = process.env['BENCH_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:55432/rewards_bench';
const ES_URL = process.env['ES_URL'] ?? 'http://127.0.0.1:59200';
const PREFIX = 'bench-many';
const chains = Number(process.env['BENCH_CHAINS'] ?? 4);
const perChain = Number(process.env['BENCH_CAMPAIGNS_PER_CHAIN'] ?? 2000);
const latencyMs = Number(process.env['BENCH_RPC_LATENCY_MS'] ?? 50);
const slowMs = Number(process.env['BENCH_SLOW_MS'] ?? 2000);
const followSamples = Number(process.env['BENCH_FOLLOW_SAMPLES'] ?? 30);
const followOnly = process.env['BENCH_FOLLOW_ONLY'] === '1';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const logger = createLogger({ level: 'warn', name: 'bench' });

/** Processes × units per process of each measured line. */
const PLAN = [
  { processes: 1, concurrency: 1, label: '1 process, one chain at a time (the old serial loop)' },
  { processes: 1, concurrency: 4, label: '1 process, 4 units at once' },
  { processes: 2, concurrency: 4, label: '2 processes' },
  { processes: 3, concurrency: 4, label: '3 processes' },
];

type Line = { seconds: number; searchableSeconds: number };

/** The environment of a scheduler process on the bench storage and `chainUrls` (blocks and campaigns every second, follow mode off). */
function childEnv(devnets: CampaignDevnet[], chainUrls: string[], concurrency: number): NodeJS.ProcessEnv {
  return {
    PATH: process.env['PATH'] ?? '',
    HOME: process.env['HOME'] ?? '',
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    DATABASE_URL,
    ES_URL,
    ES_INDEX_PREFIX: PREFIX,
    CHAINS: JSON.stringify(devnets.map((d, i) => benchChainConfig(chainUrls[i]!, d.devnet.chainId, d.stack))),
    SCHEDULER_JOBS: 'blocks,campaigns',
    SCHEDULER_CONCURRENCY: String(concurrency),
    FOLLOW_POLL_MS: '0',
    JOB_BLOCKS_CRON: '* * * * * *',
    JOB_CAMPAIGNS_CRON: '* * * * * *',
  };
}

/** Fresh storage, `processes` schedulers on `chainUrls`; seconds until every campaign is in PostgreSQL and searchable. */
async function measure(
  devnets: CampaignDevnet[],
  chainUrls: string[],
  processes: number,
  concurrency: number,
  expected: number,
  countSql = 'SELECT count(*) AS n FROM campaigns',
): Promise<Line> {
  await resetDatabase(DATABASE_URL);
  const es = createEsClient({ node: ES_URL, requestTimeoutMs: 30_000 });
  await deleteIndices({ es, prefix: PREFIX });
  await ensureIndices({ es, prefix: PREFIX, logger, shape: benchIndexShape() });
  const env = childEnv(devnets, chainUrls, concurrency);
  const since = performance.now();
  const procs: ChildProcess[] = Array.from({ length: processes }, () =>
    spawn(process.execPath, ['--import', 'tsx', 'jobs/scheduler.ts'], { cwd: ROOT, env, stdio: 'ignore' }),
  );
  try {
    const rows = await waitForRowCount({
      databaseUrl: DATABASE_URL,
      countSql,
      expected,
      since,
      timeoutMs: 900_000,
    });
    const index = indexNames(PREFIX, 'campaigns').read;
    for (;;) {
      await es.indices.refresh({ index });
      if ((await es.count({ index })).count >= expected) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    return { seconds: rows.seconds, searchableSeconds: (performance.now() - since) / 1000 };
  } finally {
    for (const p of procs) p.kill('SIGKILL');
    await es.close();
  }
}

/**
 * One scheduler process in follow mode (head polled every 250 ms) over every chain, the first one
 * answering BENCH_SLOW_MS per call: once the fast chains' backlog is searchable, one campaign at a
 * time is created on each fast chain in turn and timed from its receipt until searchable.
 */
async function followFreshness(
  devnets: CampaignDevnet[],
  proxies: FlakyRpcProxy[],
  samples: number,
): Promise<Map<number, number[]>> {
  await resetDatabase(DATABASE_URL);
  const es = createEsClient({ node: ES_URL, requestTimeoutMs: 30_000 });
  await deleteIndices({ es, prefix: PREFIX });
  await ensureIndices({ es, prefix: PREFIX, logger, shape: benchIndexShape() });
  for (const p of proxies) p.heal(), p.delayNext(60_000, latencyMs);
  proxies[0]!.heal();
  proxies[0]!.delayNext(60_000, slowMs);
  const env = {
    ...childEnv(
      devnets,
      proxies.map((p) => p.url),
      4,
    ),
    SCHEDULER_JOBS: 'blocks,campaigns,claims,roots,publish',
    FOLLOW_POLL_MS: '250',
    JOB_PUBLISH_CRON: '* * * * * *',
  };
  const proc = spawn(process.execPath, ['--import', 'tsx', 'jobs/scheduler.ts'], { cwd: ROOT, env, stdio: 'ignore' });
  const index = indexNames(PREFIX, 'campaigns').read;
  const countOn = async (chainId: number) =>
    (await es.count({ index, query: { term: { distributionChainId: chainId } } })).count;
  const out = new Map<number, number[]>();
  try {
    const fast = devnets.slice(1);
    for (const d of fast)
      for (const deadline = Date.now() + 300_000; (await countOn(d.devnet.chainId)) < perChain; await sleep(200))
        if (Date.now() > deadline) throw new Error(`chain ${d.devnet.chainId}: backlog not searchable in 300 s`);
    for (let i = 0; i < samples; i++) {
      const d = fast[i % fast.length]!;
      const chainId = d.devnet.chainId;
      const before = await countOn(chainId);
      await createCampaigns({
        rpcUrl: d.devnet.rpcUrl,
        chainId,
        stack: d.stack,
        count: 1,
        startOffset: 20_000_000 + i,
      });
      const minedAt = performance.now();
      for (const deadline = Date.now() + 30_000; (await countOn(chainId)) <= before; await sleep(20))
        if (Date.now() > deadline) throw new Error(`chain ${chainId}: campaign not searchable in 30 s`);
      out.set(chainId, [...(out.get(chainId) ?? []), (performance.now() - minedAt) / 1000]);
      if (process.env['BENCH_VERBOSE'])
        console.error(
          `sample chain ${chainId} mined ${new Date(Date.now() - (performance.now() - minedAt)).toISOString()} ${((performance.now() - minedAt) / 1000).toFixed(2)} s`,
        );
    }
    return out;
  } finally {
    proc.kill('SIGKILL');
    await es.close();
  }
}

console.log(
  `many-chains benchmark — ${new Date().toISOString()}, node ${process.version}: ${chains} chains × ${perChain} campaigns, ${latencyMs} ms per RPC call`,
);
const devnets: CampaignDevnet[] = [];
const proxies: FlakyRpcProxy[] = [];
try {
  for (let i = 0; i < chains; i++) devnets.push(await startCampaignDevnet({ chainId: 31337 + i, campaigns: perChain }));
  for (const d of devnets) {
    const proxy = await startFlakyRpcProxy(d.devnet.rpcUrl);
    proxy.delayNext(60_000, latencyMs);
    proxies.push(proxy);
  }
  const expected = chains * perChain;
  for (const line of followOnly ? [] : PLAN) {
    for (const p of proxies) p.heal(), p.delayNext(60_000, latencyMs);
    const r = await measure(
      devnets,
      proxies.map((p) => p.url),
      line.processes,
      line.concurrency,
      expected,
    );
    console.log(
      `${line.label.padEnd(55)} PostgreSQL ${r.seconds.toFixed(1)} s (${Math.round(expected / r.seconds)} campaigns/s), searchable ${r.searchableSeconds.toFixed(1)} s`,
    );
  }
  if (chains > 1 && !followOnly) {
    // One chain answers slowly: the others, indexed by one process, against the same storage reset.
    for (const p of proxies) p.heal(), p.delayNext(60_000, latencyMs);
    proxies[0]!.heal();
    proxies[0]!.delayNext(60_000, slowMs);
    const others = devnets.slice(1);
    const r = await measure(
      devnets,
      proxies.map((p) => p.url),
      1,
      4,
      others.length * perChain,
      `SELECT count(*) AS n FROM campaigns WHERE distribution_chain_id <> ${devnets[0]!.devnet.chainId}`,
    );
    console.log(
      `chain ${devnets[0]!.devnet.chainId} at ${slowMs} ms per call: the other ${others.length} chains in PostgreSQL after ${r.seconds.toFixed(1)} s (1 process, 4 units)`,
    );
  }
  if (chains > 1 && followSamples > 0) {
    // Follow mode with the slow chain still slow: event → searchable on each of the others.
    const seconds = await followFreshness(devnets, proxies, followSamples);
    for (const [chainId, list] of seconds) {
      list.sort((a, b) => a - b);
      console.log(
        `follow mode, chain ${devnets[0]!.devnet.chainId} at ${slowMs} ms per call: chain ${chainId} event → searchable (${list.length} campaigns) p50 ${percentile(list, 50).toFixed(2)} s, p95 ${percentile(list, 95).toFixed(2)} s`,
      );
    }
  }
} catch (error) {
  console.error(`benchmark failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await Promise.allSettled(proxies.map((p) => p.close()));
  await Promise.allSettled(devnets.map((d) => d.devnet.stop()));
}
process.exit();
