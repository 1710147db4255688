import type { Context } from 'koa';
import type { ApiDeps } from '../../deps.js';
import { checkHealth, checkLiveness, checkReadiness } from './checks.js';

/** GET /v4/health: 200 when every dependency answers, 503 otherwise. */
export function healthHandler(deps: ApiDeps) {
  return async (ctx: Context): Promise<void> => {
    const health = await checkHealth(deps);
    ctx.status = health.status === 'ok' ? 200 : 503;
    ctx.set('cache-control', 'no-store');
    ctx.body = health;
  };
}

/** GET /v4/health/live: always 200 while the process serves HTTP (no I/O). */
export function livenessHandler() {
  return (ctx: Context): void => {
    ctx.set('cache-control', 'no-store');
    ctx.body = checkLiveness();
  };
}

/** GET /v4/health/ready: 200 when PostgreSQL and Elasticsearch answer, 503 otherwise. */
export function readinessHandler(deps: ApiDeps) {
  return async (ctx: Context): Promise<void> => {
    const ready = await checkReadiness(deps);
    ctx.status = ready.status === 'ok' ? 200 : 503;
    ctx.set('cache-control', 'no-store');
    ctx.body = ready;
  };
}
