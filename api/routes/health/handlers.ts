import type { Context } from 'koa';
import { type ApiDeps, sharedOnAppClock } from '../../deps.js';
import { checkHealth, checkLiveness, checkReadiness } from '../../reads/health/checks.js';

/**
 * How long one health computation answers every caller. It costs five PostgreSQL queries, an
 * Elasticsearch call and an RPC call per chain, and the route is public (M3 of #29): callers at
 * any rate cost at most one computation per second per process.
 */
export const HEALTH_CACHE_MS = 1000;

/**
 * GET /v4/health: 200 when every dependency answers, 503 otherwise (a LIVE campaign without a reward
 * price degrades `status` but is no outage: 200); one computation shared for HEALTH_CACHE_MS
 * (`checkedAt` tells its time).
 */
export function healthHandler(deps: ApiDeps) {
  const shared = sharedOnAppClock(deps, () => checkHealth(deps), HEALTH_CACHE_MS);
  return async (ctx: Context): Promise<void> => {
    const health = await shared();
    ctx.status = health.dependenciesOk ? 200 : 503;
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
