import { loadJobListings } from '../../../domain/jobs/listJobs.js';
import { InvalidCronError, scheduleJob } from '../../../domain/jobs/scheduleJob.js';
import { setJobPaused } from '../../../domain/jobs/jobState.js';
import { loadRecentRuns } from '../../../domain/jobs/recentRuns.js';
import { jobInfo } from '../../../domain/jobs/catalog.js';
import { askJobRunner } from '../../../domain/jobs/runRequests.js';
import { outboxDepth } from '../../../domain/tables/outbox.js';
import { loadFreshness } from '../../reads/freshness.js';
import { withTransaction } from '../../../internal/pg.js';
import type { ApiDeps } from '../../deps.js';
import { ServiceUnavailableError, ValidationError } from '../../errors.js';
import { toFreshnessBody } from '../../reads/health/checks.js';
import { loadPipelineFacts } from '../../reads/health/pipeline.js';
import { probeDependencies } from '../../reads/internal-dependencies/probeDependencies.js';
import { needsAttention } from '../../reads/attention.js';
import type { Handler } from '../../validate.js';
import type { jobNameParams, jobsListQuery, scheduleBody } from './schema.js';
import { serializeJob, serializeRun } from './serialize.js';

/** How long run-now waits for the run before answering 202 (the run goes on in the background). */
export const RUN_WAIT_MS = 10_000;

/** One job's listing and recent runs, as GET /internal/jobs serves it. */
async function jobBody(deps: ApiDeps, name: string, runs = 5) {
  const [listings, recent] = await Promise.all([loadJobListings(deps), loadRecentRuns(deps.pg, [name], runs)]);
  return serializeJob(listings.find((l) => l.name === name)!, recent.get(name) ?? []);
}

/**
 * GET /internal/jobs: every job (schedule, state, recent runs, lag per chain), outbox depth, freshness,
 * and `attention`: what needs an operator, from the job cards' own listings, the dependency probes and
 * the facts that degrade /v4/health (api/reads/attention.ts needsAttention).
 */
export function listJobsHandler(deps: ApiDeps): Handler<{ query: typeof jobsListQuery }> {
  return async (ctx) => {
    const [listings, dependencies, pipeline] = await Promise.all([
      loadJobListings(deps),
      probeDependencies(deps),
      loadPipelineFacts(deps.pg, deps.config.prices.maxAgeSeconds),
    ]);
    const [recent, outbox, freshness] = await Promise.all([
      loadRecentRuns(
        deps.pg,
        listings.map((l) => l.name),
        ctx.state.query.runs,
      ),
      outboxDepth(deps.pg),
      loadFreshness(deps.pg),
    ]);
    ctx.set('cache-control', 'no-store');
    ctx.body = {
      checkedAt: new Date().toISOString(),
      attention: needsAttention({ dependencies, health: pipeline.prices, jobs: listings }),
      jobs: listings.map((l) => serializeJob(l, recent.get(l.name) ?? [])),
      outbox,
      freshness: toFreshnessBody(freshness),
    };
  };
}

/** POST /internal/jobs/{name}/pause|resume: persisted in job_state; schedulers skip paused jobs at their next tick. */
export function pauseHandler(deps: ApiDeps, paused: boolean): Handler<{ params: typeof jobNameParams }> {
  return async (ctx) => {
    const { name } = ctx.state.params;
    await withTransaction(deps.pg, (client) => setJobPaused(client, name, paused));
    ctx.body = await jobBody(deps, name);
  };
}

/** PUT /internal/jobs/{name}/schedule: a cron override (null resets it); an invalid expression is a 400 naming `cron`. */
export function scheduleHandler(deps: ApiDeps): Handler<{ params: typeof jobNameParams; body: typeof scheduleBody }> {
  return async (ctx) => {
    const {
      params: { name },
      body,
    } = ctx.state;
    try {
      await withTransaction(deps.pg, (client) =>
        scheduleJob({ db: client, config: deps.config, job: jobInfo(name), expression: body.cron }),
      );
    } catch (error) {
      if (error instanceof InvalidCronError)
        throw new ValidationError([
          { field: 'cron', message: 'is not a valid cron expression (node-cron, 5 or 6 fields)' },
        ]);
      throw error;
    }
    ctx.body = await jobBody(deps, name);
  };
}

/**
 * POST /internal/jobs/{name}/run: asks a job runner (the scheduler's jobs process) to run the job once
 * now, even when paused (as `jobs/cli.ts run`): a job_run_requests row the runner claims (job code
 * never runs in the API). Answers with the run when it ends within RUN_WAIT_MS, else 202 while it
 * goes on (`queued` until a runner takes it); 503 when no runner listens; a run already in progress
 * elsewhere is a 409. A failing job is reported in the body (status `failed`), a job with nothing
 * configured to do as status `skipped` with `skipReason`.
 */
export function runNowHandler(deps: ApiDeps): Handler<{ params: typeof jobNameParams }> {
  return async (ctx) => {
    const { name } = ctx.state.params;
    const pg = deps.jobsPg;
    if (!pg) throw new ServiceUnavailableError('The job request writer (read-write PostgreSQL pool)');
    const asked = await askJobRunner(pg, name, { waitMs: RUN_WAIT_MS });
    if (!asked) throw new ServiceUnavailableError('A job runner (the scheduler: npm run jobs:start)');
    const { outcome, claimed, requestId } = asked;
    ctx.set('cache-control', 'no-store');
    if (outcome === null) {
      ctx.status = 202;
      ctx.body = { job: name, status: claimed ? 'running' : 'queued', requestId };
      return;
    }
    if (outcome.status === 'skipped' && outcome.reason !== 'not-configured') {
      ctx.status = 409;
      ctx.body = { job: name, status: 'skipped', reason: outcome.reason };
      return;
    }
    const [last] = (await loadRecentRuns(deps.pg, [name], 1)).get(name) ?? [];
    ctx.body = {
      job: name,
      status: outcome.status,
      ...(outcome.status === 'failed' ? { error: outcome.error } : {}),
      ...(outcome.status === 'skipped' ? { reason: outcome.reason, skipReason: outcome.detail } : {}),
      run: last ? serializeRun(last) : null,
    };
  };
}
