import { hostname } from 'node:os';
import { coalesced } from '../internal/coalesced.js';
import { describeError } from '../internal/errors.js';
import { listenChannel } from '../internal/pgListen.js';
import {
  claimRunRequest,
  closeAbandonedRequests,
  finishRunRequest,
  JOB_RUNNER_APPLICATION,
  releaseRunRequest,
  RUN_REQUEST_CHANNEL,
  type RunRequestOutcome,
} from '../domain/jobs/runRequests.js';
import type { Job, JobDeps } from '../domain/jobs/types.js';
import { refreshOpportunities } from './refreshOpportunities.js';
import { runJob } from './runJob.js';

export type RunRequestWorker = {
  /** Resolves once the runner listens (the API then sees it: jobRunnersListening). */
  ready: Promise<void>;
  stop(): Promise<void>;
};

/**
 * Runs the back office's "run now" requests (domain/jobs/runRequests.ts) in the jobs process: LISTEN
 * job_run_requests on a connection named JOB_RUNNER_APPLICATION (so the API can tell a runner is
 * there), and on each wake-up (and once after LISTEN: nothing queued before is lost) claim and run
 * the waiting requests of `jobs` one after the other, each as `runJob(job, { force: true })` (a
 * paused job runs; the request's trigger is recorded), or, for a metrics request naming
 * `opportunityIds` (a privacy change), refreshOpportunities; each outcome is written. A run that throws is
 * recorded as `failed` with its message (runJob logged it and wrote job_runs). Several runners share
 * the requests (each is claimed once, under a lease: a session advisory lock its runner holds until the
 * outcome is written; a request whose runner died is ended as failed at the next wake-up,
 * closeAbandonedRequests). `stop` stops listening and waits for the request in hand.
 */
export function startRunRequestWorker({ deps, jobs }: { deps: JobDeps; jobs: readonly Job[] }): RunRequestWorker {
  const names = jobs.map((j) => j.name);
  const claimedBy = `${hostname()}:${process.pid}`;
  let stopped = false;
  const runOne = async (): Promise<boolean> => {
    // The lease of the request in hand lives on its own session, kept until the outcome is written.
    const lease = await deps.pg.connect();
    let leased = false;
    try {
      const request = await claimRunRequest(lease, names, claimedBy);
      if (!request) return false;
      leased = true;
      const job = jobs.find((j) => j.name === request.job)!;
      deps.logger.info({ msg: 'run requested through the API', job: job.name, request_id: request.id });
      const opportunityIds = job.name === 'metrics' ? request.params?.opportunityIds : undefined;
      const run = opportunityIds
        ? refreshOpportunities(deps, opportunityIds, request.trigger)
        : runJob(job, deps, { force: true, trigger: request.trigger });
      const outcome: RunRequestOutcome = await run.catch((error: unknown) => ({
        status: 'failed' as const,
        error: describeError(error).message,
      }));
      await finishRunRequest(deps.pg, request.id, outcome);
      await releaseRunRequest(lease, request.id);
      leased = false;
      return true;
    } finally {
      // A lease not released (a failure writing the outcome) dies with its session: the next wake-up ends the request.
      lease.release(leased);
    }
  };
  const drain = coalesced(async () => {
    try {
      // Once a wake-up, before the claims: requests whose runner died end as failed.
      const abandoned = await closeAbandonedRequests(deps.pg);
      if (abandoned) deps.logger.warn({ msg: 'run requests whose runner died ended as failed', requests: abandoned });
      while (!stopped && (await runOne()));
    } catch (error) {
      deps.logger.error({
        msg: 'run requests: claiming or recording failed; the next wake-up retries',
        err: describeError(error),
      });
    }
  });
  const listener = listenChannel({
    pg: deps.pg,
    logger: deps.logger,
    channel: RUN_REQUEST_CHANNEL,
    name: 'run requests',
    applicationName: JOB_RUNNER_APPLICATION,
    onNotify: drain.run,
  });
  return {
    ready: listener.ready,
    async stop() {
      stopped = true;
      await listener.stop();
      await drain.idle();
    },
  };
}
