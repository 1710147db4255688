import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import { checkHealth } from './checks.js';

/** GET /v4/health — 200 when every dependency answers, 503 otherwise (usable by a load balancer). */
export function healthRouter(deps: ApiDeps): Router {
  const router = new Router();
  router.get('/health', async (ctx) => {
    const health = await checkHealth(deps);
    ctx.status = health.status === 'ok' ? 200 : 503;
    ctx.set('cache-control', 'no-store');
    ctx.body = health;
  });
  return router;
}
