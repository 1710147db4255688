import Router from '@koa/router';
import { describe } from '../../openapi/describe.js';
import { any, arr, bool, int, nullable, obj, oneOfValues, str } from '../../openapi/schemaHelpers.js';
import { ATTENTION_ORDER } from '../../../domain/jobs/jobAttention.js';
import { ATTENTION_KINDS } from '../../reads/attention.js';
import { RUN_STATUSES } from '../../../domain/jobs/types.js';
import type { ApiDeps } from '../../deps.js';
import type { AuthState } from '../../identity/types.js';
import { requireBackOffice } from '../../middleware/auth.js';
import { validate } from '../../validate.js';
import { listJobsHandler, pauseHandler, runNowHandler, scheduleHandler } from './handlers.js';
import { jobNameParams, jobsListQuery, scheduleBody } from './schema.js';

/**
 * Back-office job operations (the /ops page and scripts), all behind the back-office credential
 * (401 without it, 403 for a wallet session or API key): list, run now, pause, resume, schedule.
 * They share the jobs CLI's logic (jobs/commands/, jobs/jobState.ts), so effects are the same.
 * Tables: job_state, job_runs, cursors, search_outbox.
 */
export function internalJobsRouter(deps: ApiDeps): Router<AuthState> {
  const router = new Router<AuthState>({ prefix: '/internal/jobs' });
  const name = validate({ params: jobNameParams });
  router.use(requireBackOffice);
  router.get(
    '/',
    describe({
      summary:
        'Every job with schedule, next run, state, attention, recent runs, lag, outbox and freshness (back office)',
      cacheControl: 'no-store',
      description:
        'Per job: the effective `schedule` (node-cron with seconds) and `nextRunAt` (its next tick, null while paused), `attention` (`status` failing, lagging, paused, not-configured (its latest run was skipped: nothing configured to do), never-run or ok, most urgent first, with `reasons` as sentences), the latest run (`status` running, success, failed or skipped: a run that found nothing configured to do, `skipReason` saying what to set) and `sinceLastSuccessSeconds`, and the last `runs` runs; the /ops page reads it. Per job × chain: `cursor`, `head`, `lagBlocks` and `lagSeconds` (chain time between head and cursor block), or for a job without block cursor (`blockCursor` false: tokens, prices, …) `lagSeconds` is the age of the chain unit\'s last success and `lagNote` says why there is no lag in blocks; `lagNote` also says why a lag is unknown. Example chain: `{ "chainId": 8453, "cursor": 120, "head": 126, "lagBlocks": 6, "lagSeconds": 12, "lagNote": null }`.',
      response: obj({
        checkedAt: str,
        attention: {
          ...arr(obj({ kind: oneOfValues(ATTENTION_KINDS), subject: str, text: str })),
          description:
            'What needs an operator, most urgent first: unreachable dependencies (and a red cluster), what degrades /v4/health (LIVE campaigns without a fresh reward-token price), then failing, lagging and paused jobs. `subject` is `postgres`, `elasticsearch`, `rpc:<chainId>`, `health` or `job:<name>`. Computed from the same facts as /v4/health and the jobs below (one function): empty only when none of these holds.',
        },
        jobs: arr(
          obj({
            name: str,
            description: str,
            schedule: str,
            nextRunAt: nullable(str),
            state: str,
            attention: obj({ status: oneOfValues(ATTENTION_ORDER), reasons: arr(str) }),
            blockCursor: bool,
            lagNote: nullable(str),
            lastRun: nullable(
              obj({
                status: oneOfValues(RUN_STATUSES),
                startedAt: str,
                durationMs: nullable(int),
                error: nullable(str),
                skipReason: nullable(str),
              }),
            ),
            sinceLastSuccessSeconds: nullable(int),
            chains: arr(
              obj({
                chainId: int,
                cursor: nullable(int),
                head: nullable(int),
                lagBlocks: nullable(int),
                lagSeconds: nullable(int),
                lagNote: nullable(str),
                consecutiveFailures: int,
              }),
            ),
            recentRuns: arr(any),
          }),
        ),
        outbox: any,
        freshness: any,
      }),
    }),
    validate({ query: jobsListQuery }),
    listJobsHandler(deps),
  );
  router.post(
    '/:name/run',
    describe({
      summary: 'Run a job now (back office): 200 with the run, 202 while it runs on, 409 when another process runs it',
      description:
        "Asks a job runner (the scheduler's jobs process, `npm run jobs:start`) to run the job now, even when paused; job code never runs in the API. 200 with the run when it ends within 10 s (`status` success, failed with `error`, or skipped with `skipReason` when the job has nothing configured to do, e.g. benchmark-rate without BENCHMARK_RATE_URL), 202 while it goes on (`status` queued until a runner takes it, then running; `requestId`; see GET /v4/internal/jobs), 409 when another process holds the job's lock, 503 when no job runner listens (nothing is queued).",
      response: obj({ job: str, status: oneOfValues(['success', 'failed', 'skipped']), skipReason: str }, [
        'skipReason',
      ]),
      responses: {
        202: {
          description: 'Queued or still running',
          schema: obj({ job: str, status: oneOfValues(['queued', 'running']), requestId: int }),
        },
      },
      errors: [409, 503],
    }),
    name,
    runNowHandler(deps),
  );
  router.post(
    '/:name/pause',
    describe({
      summary: 'Pause a job (back office; persisted)',
      description: 'Pauses the job: scheduled runs are skipped until it is resumed (kept across restarts).',
      response: obj({ name: str, state: str }),
    }),
    name,
    pauseHandler(deps, true),
  );
  router.post(
    '/:name/resume',
    describe({
      summary: 'Resume a job (back office)',
      description: 'Resumes a paused job.',
      response: obj({ name: str, state: str }),
    }),
    name,
    pauseHandler(deps, false),
  );
  router.put(
    '/:name/schedule',
    describe({
      summary: 'Change a job schedule without a restart (back office; null goes back to the default)',
      description: "Sets the job's cron schedule without a restart; `null` restores its default schedule.",
      response: obj({ name: str, schedule: str }),
    }),
    validate({ params: jobNameParams, body: scheduleBody }),
    scheduleHandler(deps),
  );
  return router;
}
