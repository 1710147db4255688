/**
 * One root of bench:rewards (scripts/bench/rewards.ts) ingested by the scheduler process: the root is
 * posted on the Distributor (its tree already published), and from the mined transaction until the
 * roots job has verified and stored it the benchmark samples the job process's memory, its event loop,
 * the machine's CPU and another chain's campaign freshness through the API; then the bytes the root
 * added to the reward tables. Or by the operators' one-shot command (`ingestRootByCommand`): `jobs:run --
 * all` started once the root is mined, timed until it exits.
 */
import { readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { updateTree, type ActionTarget } from '../../contracts/actions.js';
import type { Queryable } from '../../internal/pg.js';
import { sampleFreshness, type FreshnessTarget } from './campaignFreshness.js';
import type { EventLoopDelay } from './eventLoopClient.js';
import { describeCpu, snapshotCpu } from './machineCpu.js';
import { resetPeakRss, sampleTreeRss, statusBytes } from './processMemory.js';
import { bytesAdded, rewardTableBytes } from './rewardTableBytes.js';
import type { SchedulerProcess, TimedLogLine } from './schedulerProcess.js';
import { serverLogOffset, slowStatementsSince, type SlowStatement } from './slowStatements.js';

export type IngestRootParams = {
  db: Queryable;
  job: SchedulerProcess;
  /** The chain whose Distributor gets the root. */
  target: ActionTarget;
  root: string;
  /** The other chain, whose campaigns are timed meanwhile. */
  other: FreshnessTarget;
  devnetPids: number[];
  /** Processes named in the CPU line (the API, the benchmark itself), by name. */
  namedPids: Record<string, number>;
  timeoutMs: number;
  /** PostgreSQL's server log, read for the statements over the bench's threshold (slowStatements.ts). */
  serverLog: string;
};

export type RootIngestion = {
  /** What stored it: the running scheduler, or `jobs:run -- all` started once the root was mined. */
  entry: 'scheduler' | 'jobs:run -- all';
  /** From the mined updateTree to the tree verified and stored, seconds. */
  seconds: number;
  /** `jobs:run -- all` only: from the mined updateTree until the command exited (every job on every chain), seconds. */
  commandSeconds: number | null;
  /** The roots job's run that stored it (job_runs: start to finish, the pruning after the store included), seconds. */
  runSeconds: number | null;
  /** The job process's RSS when the root was posted (0: started after it), and its high-water mark until the tree was stored (VmHWM, reset first). */
  rssBefore: number;
  rssPeak: number;
  /** The highest summed RSS of the job's process tree sampled meanwhile (differs from rssPeak when the job spawns processes). */
  treeRssPeak: number;
  eventLoop: EventLoopDelay;
  /** The other chain's event → listed by /v4/campaigns, for campaigns created during the ingestion, seconds. */
  freshness: number[];
  bytes: ReturnType<typeof bytesAdded>;
  cpu: string;
  /** The steps the job timed on the chain from the post until its verifying run ended (its phases, anchors, announcement). */
  steps: TimedLogLine[];
  /** PostgreSQL's statements over the threshold meanwhile, longest first (the bench database's, every process). */
  slowStatements: SlowStatement[];
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until the tree of `root` is verified (its rewards and proof material stored); a mismatch fails. */
async function waitVerified(db: Queryable, chainId: number, root: string, job: SchedulerProcess, timeoutMs: number) {
  for (const deadline = Date.now() + timeoutMs; ; await sleep(50)) {
    const { rows } = await db.query<{ status: string; error: string | null }>(
      'SELECT status, error FROM reward_trees WHERE chain_id = $1 AND root = $2',
      [chainId, root.toLowerCase()],
    );
    if (rows[0]?.status === 'verified') return;
    if (rows[0]?.status === 'mismatch') throw new Error(`the roots job refused tree ${root}: ${rows[0].error}`);
    if (Date.now() > deadline)
      throw new Error(
        `tree ${root} not verified within ${timeoutMs / 1000} s (${rows[0]?.status ?? 'not indexed'}, ${rows[0]?.error ?? ''}); scheduler: ${job.tail()}`,
      );
  }
}

/**
 * Duration of the roots run on `chainId` (or on every chain: a CLI run has no chain) started since `since` that verified a tree, once it has finished
 * (its counts are written at the end); null when none is recorded within a minute.
 */
async function verifyingRunSeconds(db: Queryable, chainId: number, since: Date): Promise<number | null> {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; await sleep(100)) {
    const { rows } = await db.query<{ seconds: number }>(
      `SELECT extract(epoch FROM finished_at - started_at)::float8 AS seconds FROM job_runs
       WHERE job = 'roots' AND (chain_id = $1 OR chain_id IS NULL) AND started_at >= $2 AND finished_at IS NOT NULL
         AND coalesce((counts->>'trees_verified')::int, 0) > 0
       ORDER BY id DESC LIMIT 1`,
      [chainId, since],
    );
    if (rows.length) return rows[0]!.seconds;
  }
  return null;
}

/**
 * What both entry points read around a post: the reward tables' sizes and the end of PostgreSQL's log, then the
 * post (mined, the root live); `t0` is when it was mined, and `afterStore` reads, once the tree is stored, the
 * run that verified it, the bytes it added and the statements over the threshold meanwhile.
 */
async function postRoot(p: Pick<IngestRootParams, 'db' | 'target' | 'root' | 'serverLog'>) {
  const before = await rewardTableBytes(p.db);
  // A run that started a moment before the post may still pick the root up.
  const since = new Date(Date.now() - 2_000);
  const logOffset = serverLogOffset(p.serverLog);
  await updateTree({ ...p.target, root: p.root as `0x${string}`, mineUntilLive: true });
  return {
    t0: performance.now(),
    afterStore: async () => ({
      runSeconds: await verifyingRunSeconds(p.db, p.target.chainId, since),
      slowStatements: slowStatementsSince(p.serverLog, logOffset),
      bytes: bytesAdded(before, await rewardTableBytes(p.db)),
    }),
  };
}

/** Posts `root` and measures its ingestion by the running scheduler (see the module comment). */
export async function ingestRoot(p: IngestRootParams): Promise<RootIngestion> {
  const rssBefore = statusBytes(p.job.pid, 'VmRSS') ?? 0;
  if (!resetPeakRss(p.job.pid))
    throw new Error(`cannot reset the peak RSS of pid ${p.job.pid} (/proc/<pid>/clear_refs)`);
  const tree = sampleTreeRss(p.job.pid);
  await p.job.eventLoop.reset();
  const groups = { ours: p.job.pid, devnets: p.devnetPids, named: p.namedPids };
  const cpu0 = snapshotCpu(groups);
  const mark = p.job.mark();
  const { t0, afterStore } = await postRoot(p);
  let ingesting = true;
  const stored = waitVerified(p.db, p.target.chainId, p.root, p.job, p.timeoutMs).then(async () => {
    const seconds = (performance.now() - t0) / 1000;
    const rssPeak = statusBytes(p.job.pid, 'VmHWM') ?? 0;
    return { seconds, rssPeak, eventLoop: await p.job.eventLoop.read() };
  });
  const freshness = sampleFreshness(p.other, () => ingesting);
  freshness.catch(() => {}); // awaited below; a failure while the tree is stored is not unhandled
  try {
    const done = await stored;
    const cpu = describeCpu(cpu0, snapshotCpu(groups));
    const treeRssPeak = tree.stop();
    ingesting = false;
    return {
      entry: 'scheduler',
      commandSeconds: null,
      steps: p.job.timedSince(mark).filter((line) => line.chainId === p.target.chainId),
      ...(await afterStore()),
      ...done,
      rssBefore,
      treeRssPeak,
      freshness: await freshness,
      cpu,
    };
  } finally {
    ingesting = false;
    tree.stop();
  }
}

export type IngestByCommandParams = Omit<IngestRootParams, 'job' | 'other'> & {
  /** Starts `jobs:run -- all` with its event-loop figures written to `probeFile` when it exits. */
  start: (probeFile: string) => SchedulerProcess;
};

/**
 * Posts `root`, then runs the operators' one-shot command once and measures it (nothing else runs jobs):
 * post → verified (polled), post → the command's exit (it must exit 0), its process tree's peak RSS
 * (sampled every 100 ms: a process that ends has no VmHWM to read), its event loop over its whole life.
 */
export async function ingestRootByCommand(p: IngestByCommandParams): Promise<RootIngestion> {
  const probeFile = join(os.tmpdir(), `bench-rewards-loop-${process.pid}-${Date.now()}.json`);
  const { t0, afterStore } = await postRoot(p);
  const job = p.start(probeFile);
  const groups = { ours: job.pid, devnets: p.devnetPids, named: p.namedPids };
  const cpu0 = snapshotCpu(groups);
  const tree = sampleTreeRss(job.pid);
  try {
    // The machine's CPU is read up to the store, while the command and its PostgreSQL sessions still run: a
    // process that ended has no /proc entry, so a window up to the exit would lose them.
    const verified = waitVerified(p.db, p.target.chainId, p.root, job, p.timeoutMs).then(() => ({
      seconds: (performance.now() - t0) / 1000,
      cpu: describeCpu(cpu0, snapshotCpu(groups)),
    }));
    verified.catch(() => {}); // awaited below, after the exit
    const code = await job.exited;
    const commandSeconds = (performance.now() - t0) / 1000;
    if (code !== 0) throw new Error(`jobs:run -- all exited with ${code}: ${job.tail()}`);
    const { seconds, cpu } = await verified;
    const { cpuSeconds, ...eventLoop } = JSON.parse(readFileSync(probeFile, 'utf8')) as RootIngestion['eventLoop'] & {
      cpuSeconds: number;
    };
    const treeRssPeak = tree.stop();
    return {
      entry: 'jobs:run -- all',
      seconds,
      commandSeconds,
      ...(await afterStore()),
      rssBefore: 0,
      rssPeak: treeRssPeak,
      treeRssPeak,
      eventLoop,
      freshness: [],
      cpu: `${cpu}; the command's own process ${cpuSeconds.toFixed(2)} s from its start to its exit (reported at its exit)`,
      steps: job.timedSince(0).filter((line) => line.chainId === p.target.chainId),
    };
  } finally {
    tree.stop();
    await job.stop();
    rmSync(probeFile, { force: true });
  }
}
