import type { Context } from 'koa';
import type { Registry } from 'prom-client';
import { sharedResult } from '../../../internal/sharedResult.js';
import type { ApiDeps } from '../../deps.js';
import { collectMetrics } from './collectMetrics.js';
import { createMetricsRegistry } from './createMetricsRegistry.js';

/** How long one collection answers every scrape (as /v4/health: the route is public and unlimited). */
export const METRICS_SHARED_MS = 1000;

/**
 * GET /metrics: one collection into this app's own registry serves every scrape for
 * METRICS_SHARED_MS (concurrent scrapes wait for the one in flight), so however often it is called
 * PostgreSQL and the RPCs see at most one collection a second. The HTTP series of `http` are read on
 * every scrape (in-process counters, nothing to share), so a scrape always sees the requests before it.
 */
export function metricsHandler(deps: ApiDeps, http?: Registry) {
  const metrics = createMetricsRegistry();
  const scrape = sharedResult(async () => {
    metrics.update(await collectMetrics(deps));
    return metrics.registry.metrics();
  }, METRICS_SHARED_MS);
  return async (ctx: Context): Promise<void> => {
    const collected = await scrape();
    ctx.body = http ? `${collected}\n${await http.metrics()}` : collected;
    ctx.set('content-type', metrics.registry.contentType);
    ctx.set('cache-control', 'no-store');
  };
}
