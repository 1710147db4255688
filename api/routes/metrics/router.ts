import Router from '@koa/router';
import type { Registry } from 'prom-client';
import type { ApiDeps } from '../../deps.js';
import { metricsHandler } from './handlers.js';

/**
 * GET /metrics (root path, Prometheus text format 0.0.4): per job last success, last run status and
 * duration, runs and errors in 24 h, paused; per job × chain cursor and lag; per chain RPC and
 * canonical heads; outbox depth and oldest age; freshness p50/p95. Collected on each scrape from
 * PostgreSQL (and the RPCs) at most once a second (METRICS_SHARED_MS), into this app's own registry. PostgreSQL down →
 * 503 problem body (errorHandler), so Prometheus records the scrape as failed rather than stale values.
 * Then `http`'s series as of this scrape: http_requests_total and http_request_duration_seconds by
 * method, route template and status code (api/middleware/httpMetrics.ts).
 */
export function metricsRouter(deps: ApiDeps, http?: Registry): Router {
  const router = new Router();
  router.get('/metrics', metricsHandler(deps, http));
  return router;
}
