import type { JobDeps, RunJobResult, RunTrigger } from '../domain/jobs/types.js';
import { runMetrics } from './computeMetrics.js';
import { findJob } from './registry.js';
import { runJob } from './runJob.js';

/**
 * Recomputes some opportunities' figures (APR, daily rewards, records and their breakdowns, from
 * their public campaigns) and projects the search outbox now: what a privacy change asks of the job
 * runner (PATCH /v4/campaigns/{id}/privacy, a metrics request with `opportunityIds`), so the change
 * reaches their documents before the request answers instead of at the next `metrics` and `publish`
 * runs. A history snapshot of the minute is written as the metrics job writes it. Tables: as the
 * metrics and publish jobs.
 * @returns the publish run's outcome (skipped when a publish run elsewhere holds its lock: it takes
 * these entries too).
 */
export async function refreshOpportunities(
  deps: JobDeps,
  opportunityIds: string[],
  trigger: RunTrigger,
): Promise<RunJobResult> {
  await runMetrics(deps, { opportunityIds });
  return runJob(findJob('publish')!, deps, { force: true, trigger });
}
