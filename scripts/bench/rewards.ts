/**
 * Rewards at real scale (a script that prints figures, never a timed test): `npm run bench:rewards`
 * (issue #30). For each size n: two devnet chains, A holding the rewards and B where campaigns are
 * created; a deterministic n-leaf tree (scripts/bench/benchRewardTree.ts: n/2 recipients × 2 of 3
 * tokens, one or two breakdowns a leaf) and the same tree with 1% of its leaves raised, both written as
 * streams into a directory source (REWARD_TREE_SOURCE). The real scheduler runs in a child process
 * (blocks, campaigns, roots, publish on both chains, every second and in follow mode), the API in
 * another. Each root is posted on A's Distributor and measured (scripts/bench/rootIngestion.ts): time
 * until stored, the job process's peak RSS (VmHWM) and event-loop delay, bytes added to the reward
 * tables, and B's campaigns' event → listed by /v4/campaigns meanwhile; then the API's first
 * `/v4/users/{address}/rewards` reads after the root with /v4/health/live polled every 10 ms (a proxy:
 * its latency is the event loop's wait plus the request's own cost) and the API's own event-loop delay
 * (perf_hooks.monitorEventLoopDelay in the API process), warm reads over random recipients, and the
 * API's RSS. Every read is checked: the new root, the tree's amounts, proofs that fold to the root.
 * Beside it, the keccak floor: hash-wasm keccak256 of 64-byte inputs per second on one core, and 2n
 * hashes at that rate. Prints tables and writes the section "Rewards at real scale (bench:rewards)" of
 * docs/benchmarks/report.md. Uses its own database (bench_rewards_main) and index prefix
 * (bench_rewards_main). Linux only (/proc).
 * Each size is measured in each shape of BENCH_REWARDS_CAMPAIGNS (default 20,1): the breakdowns spread over 20
 * campaigns, and one campaign holding every leaf (one breakdown a leaf); the campaigns are real ones, created on
 * chain A's DistributionCreator and indexed before the first root, as an operator's are.
 * And through each entry point of BENCH_REWARDS_ENTRY (default scheduler; `scheduler,run-all` for both): the
 * running scheduler, or the operators' one-shot `jobs:run -- all` (jobs/cli.ts run all, every job on every chain
 * once) started when the root is mined, with nothing else running jobs (the scheduler is stopped once the
 * campaigns are indexed; no other-chain freshness then).
 * Options: BENCH_REWARDS_SIZES=100000,1000000 BENCH_REWARDS_CAMPAIGNS=20,1 BENCH_REWARDS_READS=300 (warm reads) BENCH_REWARDS_FIRST_READS=20
 *   BENCH_REWARDS_IDLE_SAMPLES=5 (other chain, before any root) BENCH_REWARDS_KECCAK_SECONDS=2
 *   BENCH_REWARDS_TIMEOUT_S=3600 (per root) BENCH_REWARDS_DATABASE_URL BENCH_REWARDS_ES_PREFIX
 *   BENCH_REWARDS_ECHO=1 (the scheduler's stderr to ours) BENCH_REPORT_DIR=docs/benchmarks
 *   BENCH_REWARDS_COLD_READS=50 (reads after the OS page cache is dropped, when this process may: root)
 *   BENCH_REWARDS_SLOW_MS=300 (PostgreSQL statements at least this long are listed per root, from BENCH_PG_LOG,
 *   default .data/pg/server.log)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deployStack, type DeployedStack } from '../../contracts/deploy.js';
import { findFreePort, startDevnet, type Devnet } from '../../contracts/devnet.js';
import { createEsClient } from '../../internal/es.js';
import { loadKeccak, type Keccak } from '../../internal/keccak.js';
import { createLogger } from '../../internal/logger.js';
import { createPgPool, type Queryable } from '../../internal/pg.js';
import { deleteIndices, ensureIndices } from '../../search-mappings/aliases.js';
import { resetDatabase } from '../../test/helpers/database.js';
import { startBenchApi, type BenchApi } from './apiProcess.js';
import { envPositiveInt, envPositiveNumber, benchIndexShape } from './benchParams.js';
import {
  CAMPAIGNS,
  benchLeaf,
  benchTreeRoot,
  changedLeafCount,
  leavesOfRecipient,
  mix32,
  recipientAddress,
  recipientCount,
  writeBenchTree,
  type BenchTreeSpec,
} from './benchRewardTree.js';
import { createCampaigns, getLatestTimestamp } from '../../contracts/actions.js';
import { benchCampaign, benchChainConfig, CAMPAIGNS_PER_TX } from './campaignDevnet.js';
import { campaignFreshness, type FreshnessTarget } from './campaignFreshness.js';
import { keccakHashesPerSecond } from './keccakFloor.js';
import { statusBytes } from './processMemory.js';
import { measureFirstReads, measureWarmReads, waitUntilServable, type ExpectedRewards } from './rewardReads.js';
import { apiTable, detailLines, ingestionTable, type RootFigures, type SizeFigures } from './rewardsTable.js';
import { writeReportSection } from './reportSection.js';
import { commitOf } from './runFacts.js';
import { ingestRoot, ingestRootByCommand } from './rootIngestion.js';
import { startRunAllProcess, startSchedulerProcess } from './schedulerProcess.js';
import { logSlowStatements } from './slowStatements.js';
import { dropPageCache } from './coldReads.js';
import { explainUserRead } from './explainedRead.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DATABASE_URL =
  process.env['BENCH_REWARDS_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:55432/bench_rewards_main';
const ES_URL = process.env['ES_URL'] ?? 'http://127.0.0.1:59200';
const PREFIX = process.env['BENCH_REWARDS_ES_PREFIX'] ?? 'bench_rewards_main';
const REPORT = join(process.env['BENCH_REPORT_DIR'] ?? `${ROOT}docs/benchmarks`, 'report.md');
const HEADING = 'Rewards at real scale (bench:rewards)';
const SIZES = (process.env['BENCH_REWARDS_SIZES'] ?? '100000,1000000').split(',').map((v) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 100) throw new Error(`BENCH_REWARDS_SIZES: ${v} is not an integer ≥ 100`);
  return n;
});
const CAMPAIGN_SHAPES = (process.env['BENCH_REWARDS_CAMPAIGNS'] ?? `${CAMPAIGNS},1`).split(',').map((v) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 500)
    throw new Error(`BENCH_REWARDS_CAMPAIGNS: ${v} is not an integer from 1 to 500`);
  return n;
});
const ENTRIES = (process.env['BENCH_REWARDS_ENTRY'] ?? 'scheduler').split(',').map((v) => {
  if (v !== 'scheduler' && v !== 'run-all') throw new Error(`BENCH_REWARDS_ENTRY: ${v} is not scheduler or run-all`);
  return v;
});
type Entry = (typeof ENTRIES)[number];
const READS = envPositiveInt('BENCH_REWARDS_READS', 300);
const COLD_READS = envPositiveInt('BENCH_REWARDS_COLD_READS', 50);
const SLOW_STATEMENT_MS = envPositiveInt('BENCH_REWARDS_SLOW_MS', 300);
const SERVER_LOG = process.env['BENCH_PG_LOG'] ?? join(ROOT, '.data/pg/server.log');
const FIRST_READS = envPositiveInt('BENCH_REWARDS_FIRST_READS', 20);
const IDLE_SAMPLES = envPositiveInt('BENCH_REWARDS_IDLE_SAMPLES', 5);
const KECCAK_SECONDS = envPositiveNumber('BENCH_REWARDS_KECCAK_SECONDS', 2);
const TIMEOUT_MS = envPositiveNumber('BENCH_REWARDS_TIMEOUT_S', 3600) * 1000;
const CHAIN_A = 31337;
const CHAIN_B = 31338;
const EVERY_SECOND = '* * * * * *';
const logger = createLogger({ level: 'warn', name: 'bench' });
const progress = (line: string) => process.stderr.write(`  ${line}\n`);

/** The commit measured, with a mark when the tree differs from it. */
/** What the tree of `spec` holds for recipient `r`. */
function expectedOf(keccak: Keccak, spec: BenchTreeSpec, r: number): ExpectedRewards {
  const address = recipientAddress(keccak, r);
  const leaves = leavesOfRecipient(spec.leaves, r).map((i) => benchLeaf(keccak, spec, i, address));
  return { address, amounts: new Map(leaves.map((l) => [l.token, l.amount])) };
}

/** `count` recipients picked deterministically from `seed`; for a changed tree, recipients of changed leaves. */
function pickRecipients(spec: BenchTreeSpec, count: number, seed: number, changedOnly: boolean): number[] {
  return Array.from({ length: count }, (_, j) => {
    const h = mix32(seed * 1_000_003 + j);
    // Leaf 100k + 37 (a changed one) is recipient 50k + 18's second leaf.
    return changedOnly ? 18 + 50 * (h % Math.floor((spec.leaves - 38) / 100 + 1)) : h % recipientCount(spec.leaves);
  });
}

type BenchChain = Devnet & { stack: DeployedStack };

/** Waits until the campaigns `ids` of `chainId` are indexed (the campaigns job of the scheduler). */
async function waitForCampaigns(db: Queryable, chainId: number, ids: readonly string[], timeoutMs: number) {
  for (const deadline = Date.now() + timeoutMs; ; await new Promise((r) => setTimeout(r, 100))) {
    const { rows } = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM campaigns WHERE distribution_chain_id = $1 AND lower(campaign_id) = ANY($2::text[])',
      [chainId, ids],
    );
    if (rows[0]!.n === ids.length) return;
    if (Date.now() > deadline)
      throw new Error(
        `${rows[0]!.n} of the ${ids.length} campaigns of chain ${chainId} indexed within ${timeoutMs} ms`,
      );
  }
}

/** Environment shared by the scheduler and the API: the two chains, the bench database and indices. */
function sharedEnv(a: BenchChain, b: BenchChain) {
  return {
    LOG_LEVEL: 'warn',
    DATABASE_URL,
    ES_URL,
    ES_INDEX_PREFIX: PREFIX,
    CHAINS: JSON.stringify([
      benchChainConfig(a.rpcUrl, a.chainId, a.stack),
      benchChainConfig(b.rpcUrl, b.chainId, b.stack),
    ]),
  };
}

async function startChain(chainId: number): Promise<BenchChain> {
  const devnet = await startDevnet({ chainId, port: await findFreePort() });
  try {
    return Object.assign(devnet, { stack: await deployStack({ rpcUrl: devnet.rpcUrl, chainId }) });
  } catch (error) {
    await devnet.stop();
    throw error;
  }
}

async function benchSize(keccak: Keccak, n: number, campaigns: number, entry: Entry): Promise<SizeFigures> {
  console.error(`\nN = ${n} leaves in ${campaigns} campaign(s), through ${entry}`);
  const chains = await Promise.allSettled([startChain(CHAIN_A), startChain(CHAIN_B)]);
  const treeDir = mkdtempSync(join(os.tmpdir(), 'bench-rewards-trees-'));
  const stops: (() => Promise<unknown>)[] = [
    ...chains.map((c) => () => (c.status === 'fulfilled' ? c.value.stop() : Promise.resolve())),
    async () => rmSync(treeDir, { recursive: true, force: true }),
  ];
  const db = createPgPool({ connectionString: DATABASE_URL, applicationName: 'bench-rewards' });
  try {
    const [a, b] = chains.map((c) => {
      if (c.status === 'rejected') throw c.reason;
      return c.value;
    });
    const tokens = a!.stack.tokens.rewards.map((t) => t.address.toLowerCase());
    // The breakdowns name real campaigns of chain A (created now, indexed by the scheduler before any root).
    const now = await getLatestTimestamp({ rpcUrl: a!.rpcUrl });
    const ids: string[] = [];
    for (let from = 0; from < campaigns; from += CAMPAIGNS_PER_TX) {
      const { campaignIds } = await createCampaigns({
        rpcUrl: a!.rpcUrl,
        chainId: CHAIN_A,
        stack: a!.stack,
        campaigns: Array.from({ length: Math.min(CAMPAIGNS_PER_TX, campaigns - from) }, (_, i) =>
          benchCampaign(a!.stack, now + 3600 + from + i),
        ),
      });
      ids.push(...campaignIds.map((id) => id.toLowerCase()));
    }
    const specs = [false, true].map((changed) => ({ chainId: CHAIN_A, leaves: n, tokens, changed, campaignIds: ids }));
    const g0 = performance.now();
    const trees = [];
    for (const spec of specs) {
      const root = benchTreeRoot(keccak, spec);
      trees.push({ spec, root, ...(await writeBenchTree(keccak, treeDir, spec, root)) });
    }
    const generateSeconds = (performance.now() - g0) / 1000;
    progress(`trees generated in ${generateSeconds.toFixed(1)} s (${trees.map((t) => t.bytes).join(', ')} bytes)`);

    await resetDatabase(DATABASE_URL);
    await logSlowStatements(db, new URL(DATABASE_URL).pathname.slice(1), SLOW_STATEMENT_MS);
    const es = createEsClient({ node: ES_URL, requestTimeoutMs: 30_000 });
    await deleteIndices({ es, prefix: PREFIX });
    await ensureIndices({ es, prefix: PREFIX, logger, shape: benchIndexShape() });
    stops.unshift(() => deleteIndices({ es, prefix: PREFIX }).finally(() => es.close()));
    const env = sharedEnv(a!, b!);
    const api: BenchApi = await startBenchApi(
      {
        ...env,
        NODE_ENV: 'production',
        BACK_OFFICE_TOKEN: 'bench-rewards-back-office-token-0123456789',
        JWT_SECRET: 'bench-rewards-jwt-secret-0123456789abcdef01',
        RATE_LIMITS: '100000000,100000000,100000000,100000000',
      },
      logger,
      { probeEventLoop: true },
    );
    stops.unshift(() => api.close());
    const jobEnv = {
      ...env,
      NODE_ENV: 'test',
      // Its JSON lines at info carry the timed steps of a root (scheduler timings).
      LOG_LEVEL: 'info',
      REWARD_TREE_SOURCE: treeDir,
    };
    const job = startSchedulerProcess(
      {
        ...jobEnv,
        SCHEDULER_JOBS: 'blocks,campaigns,roots,publish',
        FOLLOW_POLL_MS: '250',
        JOB_BLOCKS_CRON: EVERY_SECOND,
        JOB_CAMPAIGNS_CRON: EVERY_SECOND,
        JOB_ROOTS_CRON: EVERY_SECOND,
        JOB_PUBLISH_CRON: EVERY_SECOND,
      },
      process.env['BENCH_REWARDS_ECHO'] === '1',
      true,
    );
    stops.unshift(() => job.stop());
    const other: FreshnessTarget = { rpcUrl: b!.rpcUrl, chainId: CHAIN_B, stack: b!.stack, apiUrl: api.url };
    await campaignFreshness(other, 180_000); // the scheduler is up and indexing chain B
    await waitForCampaigns(db, CHAIN_A, ids, 180_000);
    const idleFreshness: number[] = [];
    for (let i = 0; i < IDLE_SAMPLES; i++) idleFreshness.push(await campaignFreshness(other));
    if (entry === 'run-all') await job.stop(); // from here only the command runs jobs

    const roots: RootFigures[] = [];
    for (const [k, tree] of trees.entries()) {
      const label = tree.spec.changed ? '1% changed' : 'first';
      progress(`${label} root ${tree.root}: posting`);
      const measured = {
        db,
        target: { rpcUrl: a!.rpcUrl, chainId: CHAIN_A, stack: a!.stack },
        root: tree.root,
        devnetPids: [a!.pid, b!.pid],
        namedPids: { api: api.pid, bench: process.pid },
        timeoutMs: TIMEOUT_MS,
        serverLog: SERVER_LOG,
      };
      const echo = process.env['BENCH_REWARDS_ECHO'] === '1';
      const ingestion =
        entry === 'scheduler'
          ? await ingestRoot({ ...measured, job, other })
          : await ingestRootByCommand({
              ...measured,
              start: (probeFile) => startRunAllProcess({ ...jobEnv, EVENT_LOOP_PROBE_FILE: probeFile }, echo, true),
            });
      progress(`${label} root stored in ${ingestion.seconds.toFixed(1)} s`);
      await waitUntilServable(db, CHAIN_A, tree.root, 60_000);
      const expected = (count: number, seed: number, changedOnly: boolean) =>
        pickRecipients(tree.spec, count, seed, changedOnly).map((r) => expectedOf(keccak, tree.spec, r));
      const firstReads = await measureFirstReads(
        api.url,
        api.eventLoop,
        CHAIN_A,
        tree.root,
        expected(FIRST_READS, 2 * k + 1, tree.spec.changed),
      );
      const warm = await measureWarmReads(api.url, CHAIN_A, tree.root, expected(READS, 2 * k + 2, false));
      // Then with the OS's page cache dropped (PostgreSQL's shared buffers stay: see coldReads.ts), another
      // spread sample, and one more recipient's read explained statement by statement.
      const cold = dropPageCache()
        ? await measureWarmReads(api.url, CHAIN_A, tree.root, expected(COLD_READS, 100 + 2 * k, false))
        : null;
      const [explainedOf] = pickRecipients(tree.spec, 1, 200 + k, false);
      const explained = await explainUserRead(db, CHAIN_A, recipientAddress(keccak, explainedOf!));
      roots.push({
        label,
        changedLeaves: tree.spec.changed ? changedLeafCount(n) : 0,
        treeFileBytes: tree.bytes,
        ingestion,
        firstReads,
        warm,
        cold,
        explained,
        apiRss: statusBytes(api.pid, 'VmRSS') ?? 0,
        apiRssPeak: statusBytes(api.pid, 'VmHWM') ?? 0,
      });
    }
    return { leaves: n, campaigns, generateSeconds, idleFreshness, roots };
  } finally {
    for (const stop of stops) await stop().catch(() => {});
    await db.end();
  }
}

function machine(): string {
  const cpus = os.cpus();
  return `${cpus.length} × ${cpus[0]?.model ?? 'unknown'}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB; load average ${os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`;
}

async function main(): Promise<void> {
  const commit = commitOf();
  const started = `${new Date().toISOString()}, commit ${commit}, node ${process.version}; machine ${machine()} at the start`;
  console.log(`rewards benchmark — ${started}`);
  const keccak = await loadKeccak();
  const hashesPerSecond = await keccakHashesPerSecond(KECCAK_SECONDS);
  const sizes: SizeFigures[] = [];
  for (const n of SIZES)
    for (const campaigns of CAMPAIGN_SHAPES)
      for (const entry of ENTRIES) sizes.push(await benchSize(keccak, n, campaigns, entry));
  const lines = [
    `Measured ${started}, load average ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')} at the end (2 cores shared with other work: figures are noisy and pessimistic).`,
    '',
    `Keccak floor: hash-wasm keccak256 of 64-byte inputs, ${Math.round(hashesPerSecond).toLocaleString('en-US')} hashes/s on one core; verifying n leaves is about 2n hashes.`,
    '',
    ...ingestionTable(sizes, hashesPerSecond),
    '',
    ...apiTable(sizes),
    '',
    ...detailLines(sizes),
    '',
    'How:',
    '- entry "scheduler": the scheduler (blocks, campaigns, roots, publish on chains A and B, every second and in follow',
    '  mode) runs in its own process and ingests each root; entry "jobs:run -- all (wall)": the scheduler is stopped once',
    "  the campaigns are indexed, and the operators' one-shot command (every job, every chain, once) is started when the",
    '  root is mined; its wall time (post → exit) in parentheses. "posted → stored": from the mined updateTree until the',
    '  tree is verified and stored (reward_trees); "roots run": that job run alone (job_runs); "ours" in the CPU lines is',
    '  the job process.',
    '- job peak RSS: its VmHWM, reset when the root is posted (the RSS then in parentheses).',
    '- event-loop figures: perf_hooks.monitorEventLoopDelay inside the job and API processes, i.e. the gaps between ticks',
    '  of a 10 ms timer (about 10 ms when idle; a block of B ms shows as B to B + 10 ms). /health/live latency, polled every',
    "  10 ms during the first reads, is a proxy for the API's.",
    '- other chain: event (mined receipt) → listed by /v4/campaigns, for campaigns created one after another during the ingestion.',
    '- bytes stored: pg_total_relation_size deltas of every reward% table. Every read is checked (the new root, the',
    "  tree's amounts, proofs that fold to the root).",
  ];
  console.log(`\n${lines.join('\n')}`);
  writeReportSection(REPORT, HEADING, lines.join('\n'));
  console.log(`\nsection "${HEADING}" written to ${REPORT}`);
}

try {
  await main();
} catch (error) {
  console.error(`benchmark failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  if (error instanceof Error && error.cause) console.error('caused by', error.cause);
  process.exit(1);
}
process.exit(0);
