import Router from '@koa/router';
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
  router.get('/', validate({ query: jobsListQuery }), listJobsHandler(deps));
  router.post('/:name/run', name, runNowHandler(deps));
  router.post('/:name/pause', name, pauseHandler(deps, true));
  router.post('/:name/resume', name, pauseHandler(deps, false));
  router.put('/:name/schedule', validate({ params: jobNameParams, body: scheduleBody }), scheduleHandler(deps));
  return router;
}
