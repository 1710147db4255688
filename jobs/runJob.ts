import { hostname } from 'node:os';
import { traitsOf } from '../internal/errorSources/index.js';
import { describeError } from '../internal/errors.js';
import { redactStored } from '../internal/redact.js';
import { isJobPaused } from '../domain/jobs/jobState.js';
import { closeDeadRuns } from './deadRuns.js';
import type { Job, JobDeps, RunJobResult, RunTrigger } from '../domain/jobs/types.js';

/** Namespace of our advisory locks (first key of the two-key form), so they never clash with others. */
export const JOB_LOCK_NAMESPACE = 0x6a6f62; // "job"

export type RunJobOptions = {
  /** Run even when the job is paused (an operator's `jobs/cli.ts run <job>`). */
  force?: boolean;
  /** What started the run, recorded in job_runs.trigger (default: its schedule). */
  trigger?: RunTrigger;
  /**
   * Run one work unit of a per-chain job: this chain only (the job sees `deps.rpc` narrowed to it),
   * under the unit's own lock, recorded with job_runs.chain_id. Without it a per-chain job runs
   * over every chain of `deps.rpc`, holding every unit's lock.
   */
  chainId?: number;
};

/** This process, as recorded in job_runs.runner. */
const RUNNER = `${hostname()}:${process.pid}`;

/** The advisory-lock key of one process's runs of a concurrent job (domain/jobs/types.ts `concurrent`). */
const concurrentLockKey = (job: string, runner: string) => `${job}@${runner}`;

/** The advisory-lock key of a work unit: the job, or the job on one chain. */
export const unitLockKey = (job: string, chainId?: number) => (chainId === undefined ? job : `${job}:${chainId}`);

/**
 * Runs one job (or one work unit of a per-chain job) once: takes its Postgres advisory locks on a
 * dedicated connection (a second runner, in this process or another, skips instead of racing; the
 * locks die with the connection, so the units of a killed process are free at once), records the
 * run in job_runs (start, end, chain, runner, ranges, counts, error) and releases the locks. Runs of any
 * job left 'running' by a dead process (their lock held by no other session) are closed as failed first
 * (jobs/deadRuns.ts). A paused job
 * (job_state.paused) is skipped unless `force`: nothing is recorded in job_runs (the pause itself
 * is in job_state with its time; a skip every scheduler tick would only be noise), and a run
 * already in progress when the job was paused finishes normally. A job that finds nothing configured
 * to do (its result's `skipped`) is recorded as 'skipped' with that reason (job_runs.skip_reason).
 * @throws the job's error after recording it; an unknown `chainId` (a programming error).
 */
export async function runJob(
  job: Job,
  deps: JobDeps,
  { force = false, trigger = 'schedule', chainId }: RunJobOptions = {},
): Promise<RunJobResult> {
  const unit = chainId === undefined ? deps : narrowToChain(job, deps, chainId);
  const logger = deps.logger.child(chainId === undefined ? { job: job.name } : { job: job.name, chain_id: chainId });
  if (!force && (await isJobPaused(deps.pg, job.name))) {
    logger.debug({ msg: 'job skipped: paused' });
    return { status: 'skipped', reason: 'paused' };
  }
  const keys = job.concurrent
    ? [concurrentLockKey(job.name, RUNNER)]
    : chainId !== undefined
      ? [unitLockKey(job.name, chainId)]
      : job.perChain
        ? [...deps.rpc.keys()].map((id) => unitLockKey(job.name, id))
        : [unitLockKey(job.name)];
  const lockClient = await deps.pg.connect();
  const held: string[] = [];
  try {
    for (const key of keys) {
      const lock = await lockClient.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1, hashtext($2)) AS ok', [
        JOB_LOCK_NAMESPACE,
        key,
      ]);
      if (lock.rows[0]?.ok !== true) {
        logger.info({ msg: 'job skipped: another run holds its lock', unit: key });
        return { status: 'skipped', reason: 'locked' };
      }
      held.push(key);
    }
    // Holding the locks, no live run of these units exists: their 'running' rows are dead processes', and so
    // is any job's running row whose lock no other session holds (closeDeadRuns, on the locks' session).
    const closed = await closeDeadRuns(lockClient, JOB_LOCK_NAMESPACE, [...deps.rpc.keys()]);
    if (closed) logger.warn({ msg: 'runs left running by a dead process closed as failed', runs: closed });
    const started = Date.now();
    const { rows } = await deps.pg.query<{ id: string }>(
      `INSERT INTO job_runs (job, status, trigger, chain_id, runner) VALUES ($1, 'running', $2, $3, $4) RETURNING id`,
      [job.name, trigger, chainId ?? null, RUNNER],
    );
    const runId = Number(rows[0]!.id);
    logger.debug({ msg: 'job started', run_id: runId });
    try {
      const result = await job.run({ ...unit, logger });
      const durationMs = Date.now() - started;
      if (result.skipped !== undefined) {
        await deps.pg.query(
          `UPDATE job_runs SET status = 'skipped', finished_at = now(), ranges = $2, counts = $3, skip_reason = $4 WHERE id = $1`,
          [runId, JSON.stringify(result.ranges), JSON.stringify(result.counts), result.skipped],
        );
        logger.info({ msg: 'job skipped: nothing configured', run_id: runId, reason: result.skipped });
        return { status: 'skipped', reason: 'not-configured', detail: result.skipped, runId, durationMs };
      }
      await deps.pg.query(
        `UPDATE job_runs SET status = 'success', finished_at = now(), ranges = $2, counts = $3 WHERE id = $1`,
        [runId, JSON.stringify(result.ranges), JSON.stringify(result.counts)],
      );
      const idle = Object.values(result.counts).every((n) => n === 0);
      logger[idle ? 'debug' : 'info']({
        msg: 'job finished',
        run_id: runId,
        duration_ms: durationMs,
        counts: result.counts,
      });
      return { status: 'success', runId, result, durationMs };
    } catch (error) {
      // Redacted by describeError (internal/redact.ts): job_runs is served by /v4/health and the back office (M3 of #29).
      const described = describeError(error);
      // The next scheduled run retries either way; `retryable` says whether waiting for it can help (internal/errorSources).
      const { retryable, userError } = traitsOf(error);
      logger.error({
        msg: 'job failed',
        run_id: runId,
        duration_ms: Date.now() - started,
        retryable,
        user_error: userError,
        err: described,
      });
      await deps.pg.query(`UPDATE job_runs SET status = 'failed', finished_at = now(), error = $2 WHERE id = $1`, [
        runId,
        [described.message, described.cause].filter(Boolean).join(' — caused by: '),
      ]);
      throw error;
    }
  } finally {
    for (const key of held)
      await lockClient.query('SELECT pg_advisory_unlock($1, hashtext($2))', [JOB_LOCK_NAMESPACE, key]).catch(() => {});
    lockClient.release();
  }
}

/** The deps of one work unit: `deps.rpc` holds only `chainId`'s client. */
function narrowToChain(job: Job, deps: JobDeps, chainId: number): JobDeps {
  if (!job.perChain) throw new Error(`job ${job.name} is not run per chain (chain ${chainId} asked)`);
  const client = deps.rpc.get(chainId);
  if (!client) throw new Error(`job ${job.name}: chain ${chainId} is not configured`);
  return { ...deps, rpc: new Map([[chainId, client]]) };
}

export type LastRun = {
  job: string;
  status: string;
  startedAt: Date;
  finishedAt: Date | null;
  error: string | null;
  counts: Record<string, number>;
};

/** Latest run of each job, plus the latest successful one's finish time. */
export async function lastRuns(deps: Pick<JobDeps, 'pg'>): Promise<(LastRun & { lastSuccessAt: Date | null })[]> {
  const { rows } = await deps.pg.query<{
    job: string;
    status: string;
    started_at: Date;
    finished_at: Date | null;
    error: string | null;
    counts: Record<string, number>;
    last_success_at: Date | null;
  }>(
    `SELECT DISTINCT ON (r.job) r.job, r.status, r.started_at, r.finished_at, r.error, r.counts,
       (SELECT max(finished_at) FROM job_runs s WHERE s.job = r.job AND s.status = 'success') AS last_success_at
     FROM job_runs r ORDER BY r.job, r.started_at DESC`,
  );
  return rows.map((r) => ({
    job: r.job,
    status: r.status,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
    error: redactStored(r.error),
    counts: r.counts,
    lastSuccessAt: r.last_success_at,
  }));
}
