import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import { collectMetrics } from './collectMetrics.js';
import { createMetricsRegistry } from './createMetricsRegistry.js';

/**
 * GET /metrics (root path, Prometheus text format 0.0.4): per job last success, last run status and
 * duration, runs and errors in 24 h, paused; per job × chain cursor and lag; per chain RPC and
 * canonical heads; outbox depth and oldest age; freshness p50/p95. Collected on each scrape from
 * PostgreSQL (and the RPCs), one scrape at a time, into this app's own registry. PostgreSQL down →
 * 503 problem body (errorHandler), so Prometheus records the scrape as failed rather than stale values.
 */
export function metricsRouter(deps: ApiDeps): Router {
  const router = new Router();
  const metrics = createMetricsRegistry();
  let queue: Promise<unknown> = Promise.resolve();
  router.get('/metrics', async (ctx) => {
    // Scrapes are serialized: each resets and refills the same gauges.
    const body = (queue = queue
      .catch(() => {})
      .then(async () => {
        metrics.update(await collectMetrics(deps));
        return metrics.registry.metrics();
      })) as Promise<string>;
    ctx.body = await body;
    ctx.set('content-type', metrics.registry.contentType);
    ctx.set('cache-control', 'no-store');
  });
  return router;
}
