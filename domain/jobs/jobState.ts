import type { PgClient, PgPool } from '../../internal/pg.js';

/** Operator state of one job (table job_state); a job without a row is active on its configured schedule. */
export type JobState = { job: string; paused: boolean; pausedAt: Date | null; cron: string | null; updatedAt: Date };

type Db = Pick<PgPool | PgClient, 'query'>;

/** Every job_state row, keyed by job name. */
export async function loadJobStates(db: Db): Promise<Map<string, JobState>> {
  const { rows } = await db.query<{
    job: string;
    paused: boolean;
    paused_at: Date | null;
    cron: string | null;
    updated_at: Date;
  }>('SELECT * FROM job_state');
  return new Map(
    rows.map((r) => [
      r.job,
      { job: r.job, paused: r.paused, pausedAt: r.paused_at, cron: r.cron, updatedAt: r.updated_at },
    ]),
  );
}

/** True when the job is paused (runJob skips it unless forced). */
export async function isJobPaused(db: Db, job: string): Promise<boolean> {
  const { rows } = await db.query<{ paused: boolean }>('SELECT paused FROM job_state WHERE job = $1', [job]);
  return rows[0]?.paused === true;
}

/**
 * Pauses or resumes a job; pausing an already paused job keeps its original paused_at.
 * @returns the state after the change.
 */
export async function setJobPaused(db: Db, job: string, paused: boolean): Promise<JobState> {
  const { rows } = await db.query<{
    job: string;
    paused: boolean;
    paused_at: Date | null;
    cron: string | null;
    updated_at: Date;
  }>(
    `INSERT INTO job_state (job, paused, paused_at, updated_at) VALUES ($1, $2::boolean, CASE WHEN $2::boolean THEN now() END, now())
     ON CONFLICT (job) DO UPDATE SET paused = EXCLUDED.paused, updated_at = now(),
       paused_at = CASE WHEN EXCLUDED.paused THEN COALESCE(job_state.paused_at, now()) END
     RETURNING *`,
    [job, paused],
  );
  const r = rows[0]!;
  return { job: r.job, paused: r.paused, pausedAt: r.paused_at, cron: r.cron, updatedAt: r.updated_at };
}

/** Sets the job's cron override, or removes it with null (back to JOB_<NAME>_CRON or the default). */
export async function setJobCron(db: Db, job: string, cron: string | null): Promise<void> {
  await db.query(
    `INSERT INTO job_state (job, cron, updated_at) VALUES ($1, $2, now())
     ON CONFLICT (job) DO UPDATE SET cron = EXCLUDED.cron, updated_at = now()`,
    [job, cron],
  );
}
