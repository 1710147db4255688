import Router from '@koa/router';
import type { Context, Next } from 'koa';
import type { Registry } from 'prom-client';
import type { ApiDeps } from '../../deps.js';
import { AppError } from '../../errors.js';
import type { AuthState } from '../../identity/types.js';
import { backOfficeMatcher } from '../../middleware/auth.js';
import { metricsHandler } from './handlers.js';
import { PROBLEMS } from '../../problems/registry.js';

/**
 * With METRICS_TOKEN set, a scrape must carry it in `authorization` (`Bearer <token>`, what
 * Prometheus' `authorization` setting sends) or be the back office; 401 otherwise. Unset: public.
 */
function requireMetricsToken(token: string | undefined) {
  const matches = backOfficeMatcher(token);
  return async (ctx: Context, next: Next): Promise<void> => {
    if (token && !matches(ctx.get('authorization')) && !(ctx.state as AuthState).backOffice)
      throw new AppError(
        PROBLEMS.UNAUTHORIZED,
        ctx.get('authorization')
          ? 'The metrics token in the authorization header was refused'
          : 'The metrics token (METRICS_TOKEN) is required in the authorization header',
      );
    await next();
  };
}

/**
 * GET /metrics (root path, Prometheus text format 0.0.4): prom-client's default process metrics
 * (`process_*`, `nodejs_*`, event-loop lag included); `rewards_dependency_up` and
 * `rewards_dependency_probe_seconds` per PostgreSQL, Elasticsearch and each chain's RPC (each probe
 * within 2 s); per job last success, last run status and duration, runs and errors in 24 h, paused and
 * attention status (as its /ops card); per job × chain cursor, lag in blocks and chain seconds and
 * consecutive failures; per chain RPC and canonical heads; the /ops attention list per kind and
 * /v4/health's degraded flag (api/reads/attention.ts); unpriced LIVE campaigns and reward tokens, stale
 * prices, opportunities without a readable TVL; webhooks (enabled, disabled, retrying), their backlog
 * and oldest pending event, delivery attempts of the last 15 minutes; open event streams; outbox depth
 * and oldest age; freshness p50/p95. Collected on each scrape at most once a second (METRICS_SHARED_MS)
 * into this app's own registry, with aggregate queries only. PostgreSQL down is still a 200 with
 * `rewards_dependency_up{dependency="postgres"} 0` and no PostgreSQL series (no stale values).
 * Then `http`'s series as of this scrape: http_requests_total and http_request_duration_seconds by
 * method, route template and status code (api/middleware/httpMetrics.ts), as of the shared body.
 * Rate-limited like any route (#43 F7); with METRICS_TOKEN set, only for the token's holder.
 * deploy/alerts.yml holds sample alerts on these names (test/unit/deploy/alerts.test.ts checks them).
 */
export function metricsRouter(deps: ApiDeps, http?: Registry): Router {
  const router = new Router();
  router.get('/metrics', requireMetricsToken(deps.config.metricsToken), metricsHandler(deps, http));
  return router;
}
