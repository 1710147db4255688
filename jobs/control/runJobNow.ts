import type { JobDeps, RunJobResult, RunTrigger } from '../../domain/jobs/types.js';

/**
 * Runs one job once now, even when paused (the back office's "run now", as `jobs/cli.ts run`).
 * The job's code is imported here, on first use, so a process that only reads the catalog and
 * the runs (the API) does not load the indexer with it.
 * `trigger` is recorded with the run (job_runs.trigger).
 * @returns the run's outcome (skipped when another process holds the job's lock).
 */
export async function runJobNow(name: string, deps: JobDeps, trigger: RunTrigger): Promise<RunJobResult> {
  const [{ runJob }, { findJob }] = await Promise.all([import('../runJob.js'), import('../registry.js')]);
  const job = findJob(name);
  if (!job) throw new Error(`unknown job ${name}`);
  return runJob(job, deps, { force: true, trigger });
}
