import type { JobDeps } from '../../domain/jobs/types.js';

/**
 * Recomputes one opportunity's figures (APR, daily rewards, records and their breakdowns, from its
 * public campaigns) and projects the search outbox now, so a change of what the opportunity is
 * built from (a campaign made private or public) reaches its document before the caller's request
 * answers instead of at the next `metrics` and `publish` runs. The metrics code is imported on
 * first use (the API loads only this face). A history snapshot of the minute is written as the
 * metrics job writes it. Tables: as the metrics and publish jobs.
 */
export async function refreshOpportunityNow(deps: JobDeps, opportunityId: string): Promise<void> {
  const [{ runMetrics }, { findJob }, { runJob }] = await Promise.all([
    import('../computeMetrics.js'),
    import('../registry.js'),
    import('../runJob.js'),
  ]);
  await runMetrics(deps, { opportunityIds: [opportunityId] });
  // The publish job's unit, so it never runs twice at once with a scheduler's; if one is under way
  // elsewhere (skipped here), it takes these entries too.
  await runJob(findJob('publish')!, deps, { force: true, trigger: 'manual' });
}
