import Router from '@koa/router';
import type { Context, Next } from 'koa';
import type { Registry } from 'prom-client';
import type { ApiDeps } from '../../deps.js';
import { AppError } from '../../errors.js';
import type { AuthState } from '../../identity/types.js';
import { backOfficeMatcher } from '../../middleware/auth.js';
import { metricsHandler } from './handlers.js';

/**
 * With METRICS_TOKEN set, a scrape must carry it in `authorization` (`Bearer <token>`, what
 * Prometheus' `authorization` setting sends) or be the back office; 401 otherwise. Unset: public.
 */
function requireMetricsToken(token: string | undefined) {
  const matches = backOfficeMatcher(token);
  return async (ctx: Context, next: Next): Promise<void> => {
    if (token && !matches(ctx.get('authorization')) && !(ctx.state as AuthState).backOffice)
      throw new AppError(
        401,
        'UNAUTHORIZED',
        ctx.get('authorization')
          ? 'The metrics token in the authorization header was refused'
          : 'The metrics token (METRICS_TOKEN) is required in the authorization header',
      );
    await next();
  };
}

/**
 * GET /metrics (root path, Prometheus text format 0.0.4): per job last success, last run status and
 * duration, runs and errors in 24 h, paused; per job × chain cursor and lag; per chain RPC and
 * canonical heads; outbox depth and oldest age; freshness p50/p95. Collected on each scrape from
 * PostgreSQL (and the RPCs) at most once a second (METRICS_SHARED_MS), into this app's own registry. PostgreSQL down →
 * 503 problem body (errorHandler), so Prometheus records the scrape as failed rather than stale values.
 * Then `http`'s series as of this scrape: http_requests_total and http_request_duration_seconds by
 * method, route template and status code (api/middleware/httpMetrics.ts), as of the shared body.
 * Rate-limited like any route (#43 F7); with METRICS_TOKEN set, only for the token's holder.
 */
export function metricsRouter(deps: ApiDeps, http?: Registry): Router {
  const router = new Router();
  router.get('/metrics', requireMetricsToken(deps.config.metricsToken), metricsHandler(deps, http));
  return router;
}
