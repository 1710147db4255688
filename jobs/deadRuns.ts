import { heldAdvisoryKeysSql } from '../internal/advisoryLocks.js';
import type { Queryable } from '../internal/pg.js';

/**
 * Closes as failed ('interrupted: the process running it died') every job run still marked running whose
 * process is gone, of any job: a run holds its unit's advisory lock (jobs/runJob.ts) from before its row is
 * written until after it is closed, and the lock dies with its session, so a running row whose lock no other
 * session holds is a dead process's. Run on the session holding the caller's own unit locks, it closes that
 * unit's dead rows too; without it, a unit killed in a job that never runs again (dropped from SCHEDULER_JOBS,
 * paused, a one-off CLI run) would stay "running" in /v4/jobs, /ops and the metrics forever.
 * A run's locks, by its row: `job` (a job of no chain), `job:chain` (a chain's unit), `job:<each configured
 * chain>` (a per-chain job run for every chain at once: chain_id null; the chains this process knows and every
 * chain stored, as another process may have been given others), `job@runner` (a concurrent job).
 * Tables: job_runs (job_runs_running_idx), pg_locks. Returns how many runs it closed.
 */
export async function closeDeadRuns(lockSession: Queryable, lockNamespace: number, chainIds: readonly number[]) {
  const { rowCount } = await lockSession.query(
    `WITH held AS (${heldAdvisoryKeysSql('$1')})
     UPDATE job_runs r SET status = 'failed', finished_at = now(), error = 'interrupted: the process running it died'
     WHERE r.status = 'running' AND NOT EXISTS (
       SELECT 1 FROM held h WHERE h.key IN (
         SELECT hashtext(k)::bigint & 4294967295 FROM unnest(
           ARRAY[r.job, r.job || ':' || r.chain_id, r.job || '@' || r.runner]
             || CASE WHEN r.chain_id IS NULL THEN ARRAY(SELECT r.job || ':' || c FROM (SELECT unnest($2::int[]) UNION SELECT id FROM chains) AS ids(c)) ELSE '{}' END
         ) AS k WHERE k IS NOT NULL))`,
    [lockNamespace, chainIds],
  );
  return rowCount ?? 0;
}
