import type { Context } from 'koa';
import type { Registry } from 'prom-client';
import { type ApiDeps, sharedOnAppClock } from '../../deps.js';
import { collectMetrics } from './collectMetrics.js';
import { createMetricsRegistry } from './createMetricsRegistry.js';

/** How long one body answers every scrape (as /v4/health: one computation a second, whoever asks). */
export const METRICS_SHARED_MS = 1000;

/**
 * GET /metrics: one collection into this app's own registry, and one serialization of it with the
 * HTTP series of `http`, serve every scrape for METRICS_SHARED_MS (concurrent scrapes wait for the
 * one in flight and get the same body), so however often it is called PostgreSQL and the RPCs see
 * at most one collection a second and the event loop one serialization (a body is hundreds of KB:
 * serializing it per scrape let one client slow the liveness probe from 13 to 499 ms, #43 F7).
 * The HTTP series are therefore as of the body's serialization, at most METRICS_SHARED_MS old.
 */
export function metricsHandler(deps: ApiDeps, http?: Registry) {
  const metrics = createMetricsRegistry();
  const scrape = sharedOnAppClock(
    deps,
    async () => {
      metrics.update(await collectMetrics(deps));
      const collected = await metrics.registry.metrics();
      return http ? `${collected}\n${await http.metrics()}` : collected;
    },
    METRICS_SHARED_MS,
  );
  return async (ctx: Context): Promise<void> => {
    ctx.body = await scrape();
    ctx.set('content-type', metrics.registry.contentType);
    ctx.set('cache-control', 'no-store');
  };
}
