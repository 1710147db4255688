/**
 * Backfill memory benchmark (a script that prints figures, never a timed test): `npm run bench:backfill-rss`.
 * For each N it creates N NewCampaign logs on a fresh devnet, then runs the `campaigns` job as an
 * operator does (`jobs/cli.ts run campaigns`, its own process) from an empty database until every
 * campaign is searchable, sampling that process's resident memory (/proc/<pid>/status VmRSS) every
 * 100 ms. Flat in N means the peak does not grow with N. Uses its own database (rewards_bench) and
 * index prefix (benchrss). Linux only (/proc).
 * Options: BENCH_RSS_SIZES=10000,100000,1000000
 *   BENCH_RSS_NODE=hardhat|synthetic (default: a Hardhat devnet holding the N campaigns up to 150,000, and above that,
 *   where it would not fit in memory at ~85 KB per campaign, the synthetic node of scripts/bench/syntheticLogNode.ts,
 *   which computes the logs and headers of each block from its number)
 *   BENCH_RSS_NODE_OPTIONS='|--max-old-space-size=256' (one run of the job per NODE_OPTIONS, '|'-separated, on the
 *   same devnet: Node's defaults, then a 256 MiB old space: when the job completes under the cap at every N, its
 *   live objects never needed more, and what its RSS shows above that at defaults is garbage V8 collects later)
 *   BENCH_RSS_ECHO=1 (the job's stderr to ours)
 *   BENCH_RSS_PROFILE_DIR=/tmp/prof (each job process writes a V8 CPU profile there, `node --cpu-prof`, which
 *   NODE_OPTIONS does not allow; summarize one with scripts/bench/cpuProfileSummary.ts)
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createEsClient, indexNames } from '../../internal/es.js';
import { deleteIndices } from '../../search-mappings/aliases.js';
import { getCursor } from '../../indexer/store/cursor.js';
import { resetDatabase } from '../../test/helpers/database.js';
import { benchIndexerEnv, startCampaignDevnet } from './campaignDevnet.js';
import { startSyntheticCampaignDevnet } from './syntheticLogNode.js';
import { percentile } from './benchParams.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DATABASE_URL = process.env['BENCH_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:55432/rewards_bench';
const ES_URL = process.env['ES_URL'] ?? 'http://127.0.0.1:59200';
const PREFIX = 'benchrss';
const CHAIN_ID = 31337;
// Above this, a Hardhat devnet would not fit in memory (~85 KB per campaign): the synthetic node serves the logs.
const HARDHAT_MAX = 150_000;
const sizes = (process.env['BENCH_RSS_SIZES'] ?? '10000,100000,1000000').split(',').filter(Boolean).map(Number);
// Each run of the job on the same devnet, with these NODE_OPTIONS ('' = Node's defaults).
const variants = (process.env['BENCH_RSS_NODE_OPTIONS'] ?? '|--max-old-space-size=256').split('|');
const MIB = 2 ** 20;
const PROFILE_DIR = process.env['BENCH_RSS_PROFILE_DIR'];

/** Resident memory of `pid` in bytes, or null once it has exited. */
function rssOf(pid: number): number | null {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('VmRSS:'));
    return line ? Number(line.split(/\s+/)[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** Runs `jobs/cli.ts run <job>` with `env`, sampling its RSS; rejects when it fails. */
function runJobProcess(job: string, env: Record<string, string>): Promise<{ seconds: number; rss: number[] }> {
  const t0 = performance.now();
  const profile = PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', 'jobs/cli.ts', 'run', job], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    if (process.env['BENCH_RSS_ECHO']) process.stderr.write(d);
    stderr = (stderr + d.toString()).slice(-4000);
  });
  const rss: number[] = [];
  const sampler = setInterval(() => {
    const bytes = child.pid === undefined ? null : rssOf(child.pid);
    if (bytes !== null) rss.push(bytes);
  }, 100);
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => {
      clearInterval(sampler);
      if (code === 0) resolve({ seconds: (performance.now() - t0) / 1000, rss });
      else reject(new Error(`jobs/cli.ts run ${job} exited ${code}: ${stderr.split('\n').slice(-6).join(' ')}`));
    });
  });
}

/** The blocks job's cursor on the benchmark chain (null before its first range). */
async function blocksCursor(): Promise<number | null> {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    return await getCursor(client, 'blocks', CHAIN_ID);
  } finally {
    await client.end();
  }
}

/** One run of the job over the devnet's campaigns from an empty database, with `nodeOptions` for its process. */
async function benchRun(n: number, head: number, env: Record<string, string>, nodeOptions: string): Promise<void> {
  await resetDatabase(DATABASE_URL);
  const es = createEsClient({ node: ES_URL, requestTimeoutMs: 60_000 });
  await deleteIndices({ es, prefix: PREFIX });
  const runEnv = nodeOptions ? { ...env, NODE_OPTIONS: nodeOptions } : env;
  // The headers first, up to the head: one run of the blocks job stores at most 20 ranges of INDEXER_MAX_BLOCK_BATCH.
  for (let cursor = -1; cursor < head; ) {
    await runJobProcess('blocks', runEnv);
    const next = (await blocksCursor()) ?? -1;
    if (next <= cursor) throw new Error(`the blocks job stopped at block ${next}, short of the head ${head}`);
    cursor = next;
  }
  const { seconds, rss } = await runJobProcess('campaigns', runEnv);
  await es.indices.refresh({ index: indexNames(PREFIX, 'campaigns').read });
  const searchable = (await es.count({ index: indexNames(PREFIX, 'campaigns').read })).count;
  await es.close();
  if (searchable !== n) throw new Error(`expected ${n} searchable campaigns, found ${searchable}`);
  const sorted = [...rss].sort((a, b) => a - b);
  const quarter = (q: number) => (rss[Math.min(rss.length - 1, Math.floor((rss.length * q) / 4))]! / MIB).toFixed(0);
  console.log(
    `  ${nodeOptions || 'default heap'}: ${n} searchable in ${seconds.toFixed(1)} s (${(n / seconds).toFixed(0)}/s, process start-up included); RSS peak ${(sorted[sorted.length - 1]! / MIB).toFixed(0)} MiB, median ${(percentile(sorted, 50) / MIB).toFixed(0)} MiB, at 1/4, 2/4, 3/4 of the run ${quarter(1)}, ${quarter(2)}, ${quarter(3)} MiB (${rss.length} samples)`,
  );
}

/** The node of a size: BENCH_RSS_NODE, else the Hardhat devnet up to HARDHAT_MAX campaigns and the synthetic node above. */
const nodeFor = (n: number): 'hardhat' | 'synthetic' => {
  const chosen = process.env['BENCH_RSS_NODE'];
  if (chosen === 'hardhat' || chosen === 'synthetic') return chosen;
  if (chosen) throw new Error(`BENCH_RSS_NODE must be hardhat or synthetic, not ${chosen}`);
  return n <= HARDHAT_MAX ? 'hardhat' : 'synthetic';
};

async function benchSize(n: number): Promise<void> {
  const kind = nodeFor(n);
  const t0 = performance.now();
  const setup =
    kind === 'hardhat'
      ? { ...(await startCampaignDevnet({ chainId: CHAIN_ID, campaigns: n })), node: null }
      : await startSyntheticCampaignDevnet({ chainId: CHAIN_ID, campaigns: n });
  const rpcUrl = setup.node?.rpcUrl ?? setup.devnet.rpcUrl;
  try {
    const devnetRss = rssOf(setup.devnet.pid);
    console.log(
      setup.node === null
        ? `\nN = ${n}, Hardhat devnet: created in ${setup.createSeconds.toFixed(0)} s (the devnet then holds ${devnetRss === null ? '?' : (devnetRss / MIB).toFixed(0)} MiB)`
        : `\nN = ${n}, synthetic node (1 campaign on the devnet, ${n - 1} in ${setup.head - setup.node.base} synthetic blocks): ready in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
    );
    const env = {
      ...benchIndexerEnv({ rpcUrl, chainId: CHAIN_ID, stack: setup.stack, databaseUrl: DATABASE_URL, prefix: PREFIX }),
      ES_URL,
    };
    for (const nodeOptions of variants) await benchRun(n, setup.head, env, nodeOptions);
  } finally {
    await setup.node?.stop();
    await setup.devnet.stop();
  }
}

console.log(`backfill RSS benchmark — ${new Date().toISOString()}, node ${process.version}`);
try {
  for (const n of sizes) await benchSize(n);
} catch (error) {
  console.error(`benchmark failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
process.exit(0);
