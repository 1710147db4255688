/**
 * One root of bench:rewards (scripts/bench/rewards.ts) ingested by the scheduler process: the root is
 * posted on the Distributor (its tree already published), and from the mined transaction until the
 * roots job has verified and stored it the benchmark samples the job process's memory, its event loop,
 * the machine's CPU and another chain's campaign freshness through the API; then the bytes the root
 * added to the reward tables.
 */
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
  /** From the mined updateTree to the tree verified and stored, seconds. */
  seconds: number;
  /** The roots job's run that stored it (job_runs: start to finish, the pruning after the store included), seconds. */
  runSeconds: number | null;
  /** The job process's RSS when the root was posted, and its high-water mark until the tree was stored (VmHWM, reset first). */
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
 * Duration of the roots run on `chainId` started since `since` that verified a tree, once it has finished
 * (its counts are written at the end); null when none is recorded within a minute.
 */
async function verifyingRunSeconds(db: Queryable, chainId: number, since: Date): Promise<number | null> {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; await sleep(100)) {
    const { rows } = await db.query<{ seconds: number }>(
      `SELECT extract(epoch FROM finished_at - started_at)::float8 AS seconds FROM job_runs
       WHERE job = 'roots' AND chain_id = $1 AND started_at >= $2 AND finished_at IS NOT NULL
         AND coalesce((counts->>'trees_verified')::int, 0) > 0
       ORDER BY id DESC LIMIT 1`,
      [chainId, since],
    );
    if (rows.length) return rows[0]!.seconds;
  }
  return null;
}

/** Posts `root` and measures its ingestion by the running scheduler (see the module comment). */
export async function ingestRoot(p: IngestRootParams): Promise<RootIngestion> {
  const before = await rewardTableBytes(p.db);
  const rssBefore = statusBytes(p.job.pid, 'VmRSS') ?? 0;
  if (!resetPeakRss(p.job.pid))
    throw new Error(`cannot reset the peak RSS of pid ${p.job.pid} (/proc/<pid>/clear_refs)`);
  const tree = sampleTreeRss(p.job.pid);
  await p.job.eventLoop.reset();
  const groups = { ours: p.job.pid, devnets: p.devnetPids, named: p.namedPids };
  const cpu0 = snapshotCpu(groups);
  // A run that started a moment before the post may still pick the root up.
  const since = new Date(Date.now() - 2_000);
  const mark = p.job.mark();
  const logOffset = serverLogOffset(p.serverLog);
  await updateTree({ ...p.target, root: p.root as `0x${string}`, mineUntilLive: true });
  const t0 = performance.now();
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
    const runSeconds = await verifyingRunSeconds(p.db, p.target.chainId, since);
    return {
      steps: p.job.timedSince(mark).filter((line) => line.chainId === p.target.chainId),
      slowStatements: slowStatementsSince(p.serverLog, logOffset),
      ...done,
      runSeconds,
      rssBefore,
      treeRssPeak,
      freshness: await freshness,
      bytes: bytesAdded(before, await rewardTableBytes(p.db)),
      cpu,
    };
  } finally {
    ingesting = false;
    tree.stop();
  }
}
