import { heldAdvisoryKeysSql } from '../../internal/advisoryLocks.js';
import type { Queryable } from '../../internal/pg.js';
import type { RunJobResult, RunTrigger } from './types.js';

/**
 * The back office's "run now" as a signal the jobs process acts on (issue 47; table job_run_requests,
 * migration 2026_12_13_10): the API inserts a request and waits a bounded time for its outcome; a job
 * runner (jobs/runRequestWorker.ts, started by the scheduler) claims it, runs the job and writes the
 * outcome. Job code never runs in the API process.
 */

/** The channel an insert notifies (the table's trigger) and the runners LISTEN on. */
export const RUN_REQUEST_CHANNEL = 'job_run_requests';
/** application_name of a runner's listening connection: how the API tells that a runner is there. */
export const JOB_RUNNER_APPLICATION = 'rewards-job-runner';

/** What narrows a requested run: the opportunities a metrics request recomputes (then publishes). */
export type RunRequestParams = { opportunityIds?: string[] };

/** What a request ended with: the run's result, or the error that ended it. */
export type RunRequestOutcome = RunJobResult | { status: 'failed'; error: string };

/** Queues a run of `job`; returns the request's id. The insert's trigger wakes the runners at commit. */
export async function requestJobRun(
  pg: Queryable,
  job: string,
  trigger: RunTrigger,
  params?: RunRequestParams,
): Promise<number> {
  const { rows } = await pg.query<{ id: string }>(
    'INSERT INTO job_run_requests (job, trigger, params) VALUES ($1, $2, $3) RETURNING id',
    [job, trigger, params ? JSON.stringify(params) : null],
  );
  return Number(rows[0]!.id);
}

/** Where a request stands: taken by a runner or not, and its outcome once written (null before). */
export type RunRequestState = { claimed: boolean; outcome: RunRequestOutcome | null };

async function runRequestState(pg: Queryable, id: number): Promise<RunRequestState> {
  const { rows } = await pg.query<RunRequestState>(
    'SELECT claimed_at IS NOT NULL AS claimed, outcome FROM job_run_requests WHERE id = $1',
    [id],
  );
  return rows[0] ?? { claimed: false, outcome: null };
}

/** Advisory-lock class of a claimed request (two-int form: the request id modulo 2^31), held by its runner. */
export const RUN_REQUEST_LOCK_CLASS = 0x6a7272; // "jrr"

/**
 * Claims the oldest unclaimed request for one of `jobs` (FOR UPDATE SKIP LOCKED: two runners never
 * claim the same one), marked with `claimedBy`, and takes its lease: a session advisory lock on
 * `lockSession` (a connection the runner keeps until it has written the outcome), taken by the claim's
 * statement so that no one sees the claim without the lease. A runner that dies loses the lease with its
 * session; closeAbandonedRequests then ends the request. Null when none is waiting.
 */
export async function claimRunRequest(
  lockSession: Queryable,
  jobs: readonly string[],
  claimedBy: string,
): Promise<{ id: number; job: string; trigger: RunTrigger; params: RunRequestParams | null } | null> {
  // One statement: the claim commits with its lease already taken.
  const { rows } = await lockSession.query<{
    id: string;
    job: string;
    trigger: RunTrigger;
    params: RunRequestParams | null;
  }>(
    `WITH claimed AS (
       UPDATE job_run_requests SET claimed_at = now(), claimed_by = $2
        WHERE id = (SELECT id FROM job_run_requests WHERE claimed_at IS NULL AND job = ANY($1::text[])
                     ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
        RETURNING id, job, trigger, params)
     SELECT id, job, trigger, params, pg_advisory_lock($3, (id % 2147483647)::int) FROM claimed`,
    [jobs, claimedBy, RUN_REQUEST_LOCK_CLASS],
  );
  const row = rows[0];
  return row ? { id: Number(row.id), job: row.job, trigger: row.trigger, params: row.params } : null;
}

/** Releases request `id`'s lease (after its outcome is written). */
export async function releaseRunRequest(lockSession: Queryable, id: number): Promise<void> {
  await lockSession.query('SELECT pg_advisory_unlock($1, ($2::bigint % 2147483647)::int)', [
    RUN_REQUEST_LOCK_CLASS,
    id,
  ]);
}

/**
 * Ends as failed every claimed request without an outcome whose lease nobody holds: its runner died (SIGKILL,
 * a lost machine) while running it, and the caller waiting for it (a back-office "run now", a privacy change)
 * would otherwise see it claimed forever. Not retried: a request that kills its runner would kill the next.
 * Tables: job_run_requests (job_run_requests_claimed_idx), pg_locks. Returns how many it ended.
 */
export async function closeAbandonedRequests(pg: Queryable): Promise<number> {
  const { rowCount } = await pg.query(
    `UPDATE job_run_requests r SET finished_at = now(),
       outcome = jsonb_build_object('status', 'failed', 'error', 'interrupted: the runner that claimed it (' || r.claimed_by || ') died')
     WHERE r.claimed_at IS NOT NULL AND r.finished_at IS NULL
       AND r.id % 2147483647 NOT IN (${heldAdvisoryKeysSql('$1')})`,
    [RUN_REQUEST_LOCK_CLASS],
  );
  return rowCount ?? 0;
}

/** Writes request `id`'s outcome. */
export async function finishRunRequest(pg: Queryable, id: number, outcome: RunRequestOutcome): Promise<void> {
  await pg.query('UPDATE job_run_requests SET finished_at = now(), outcome = $2 WHERE id = $1', [
    id,
    JSON.stringify(outcome),
  ]);
}

/** How many job runners listen for requests on this database now (their connections' application_name). */
async function jobRunnersListening(pg: Queryable): Promise<number> {
  const { rows } = await pg.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()`,
    [JOB_RUNNER_APPLICATION],
  );
  return rows[0]!.n;
}

/**
 * Request `id`'s state once its outcome is written, polling every `pollMs` for at most `waitMs`; the
 * last state read when it did not end in time (it goes on: the runner writes the outcome when it ends).
 */
export async function awaitRunRequest(
  pg: Queryable,
  id: number,
  { waitMs, pollMs = 100 }: { waitMs: number; pollMs?: number },
): Promise<RunRequestState> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const state = await runRequestState(pg, id);
    if (state.outcome || Date.now() >= deadline) return state;
    await new Promise((resolve) => setTimeout(resolve, Math.min(pollMs, Math.max(0, deadline - Date.now()))));
  }
}

/**
 * What the API asks of the jobs process: a run of `job` (narrowed by `params`) by a job runner, awaited
 * at most `waitMs` (awaitRunRequest). Null when no runner listens: then nothing is queued.
 */
export async function askJobRunner(
  pg: Queryable,
  job: string,
  { params, waitMs }: { params?: RunRequestParams; waitMs: number },
): Promise<(RunRequestState & { requestId: number }) | null> {
  if ((await jobRunnersListening(pg)) === 0) return null;
  const requestId = await requestJobRun(pg, job, 'manual', params);
  return { requestId, ...(await awaitRunRequest(pg, requestId, { waitMs })) };
}
