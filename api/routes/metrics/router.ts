import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import { metricsHandler } from './handlers.js';

/**
 * GET /metrics (root path, Prometheus text format 0.0.4): per job last success, last run status and
 * duration, runs and errors in 24 h, paused; per job × chain cursor and lag; per chain RPC and
 * canonical heads; outbox depth and oldest age; freshness p50/p95. Collected on each scrape from
 * PostgreSQL (and the RPCs) at most once a second (METRICS_SHARED_MS), into this app's own registry. PostgreSQL down →
 * 503 problem body (errorHandler), so Prometheus records the scrape as failed rather than stale values.
 */
export function metricsRouter(deps: ApiDeps): Router {
  const router = new Router();
  router.get('/metrics', metricsHandler(deps));
  return router;
}
