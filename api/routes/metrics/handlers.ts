import type { Context } from 'koa';
import type { ApiDeps } from '../../deps.js';
import { collectMetrics } from './collectMetrics.js';
import { createMetricsRegistry } from './createMetricsRegistry.js';

/** GET /metrics: collects into this app's own registry on each scrape, one scrape at a time. */
export function metricsHandler(deps: ApiDeps) {
  const metrics = createMetricsRegistry();
  let queue: Promise<unknown> = Promise.resolve();
  return async (ctx: Context): Promise<void> => {
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
  };
}
