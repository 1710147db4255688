import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import { checkHealth } from './checks.js';
import { describe } from '../../openapi/describe.js';
import { any, arr, bool, obj, str } from '../../openapi/schemaHelpers.js';

const check = obj({ ok: bool, latencyMs: { type: 'number' }, error: str }, ['error']);
const healthSchema = obj({ status: { enum: ['ok', 'degraded'] }, checkedAt: str, postgres: check, elasticsearch: check, chains: arr(obj({ id: { type: 'integer' }, name: str, rpc: check })), jobs: arr({ type: 'object' }), outbox: any, freshness: any });

/** GET /v4/health — 200 when every dependency answers, 503 otherwise (usable by a load balancer). */
export function healthRouter(deps: ApiDeps): Router {
  const router = new Router();
  router.get('/health', describe({ summary: 'Health of PostgreSQL, Elasticsearch, RPCs and jobs', response: healthSchema, responses: { 503: { description: 'A dependency does not answer', schema: healthSchema } } }), async (ctx) => {
    const health = await checkHealth(deps);
    ctx.status = health.status === 'ok' ? 200 : 503;
    ctx.set('cache-control', 'no-store');
    ctx.body = health;
  });
  return router;
}
