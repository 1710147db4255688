import Router from '@koa/router';
import type { ApiDeps } from '../deps.js';
import { blockTimestampRouter } from './block-timestamp/router.js';
import { campaignsRouter } from './campaigns/router.js';
import { chainsRouter } from './chains/router.js';
import { healthRouter } from './health/router.js';
import { metricsRouter } from './metrics/router.js';

/** Mounts every route family at /v4, and Prometheus' /metrics at the root. */
export function createRoutes(deps: ApiDeps): Router {
  const root = new Router();
  const metrics = metricsRouter(deps);
  root.use(metrics.routes(), metrics.allowedMethods({ throw: true }));
  const v4 = new Router({ prefix: '/v4' });
  for (const family of [healthRouter, chainsRouter, blockTimestampRouter, campaignsRouter]) {
    const router = family(deps);
    v4.use(router.routes(), router.allowedMethods({ throw: true }));
  }
  root.use(v4.routes(), v4.allowedMethods({ throw: true }));
  return root;
}
