import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import { healthHandler, livenessHandler, readinessHandler } from './handlers.js';
import { describe } from '../../openapi/describe.js';
import { TVL_STATUSES } from '../../../domain/tvlStatus.js';
import { any, arr, bool, int, nullable, obj, str } from '../../openapi/schemaHelpers.js';

const check = obj({ ok: bool, latencyMs: { type: 'number' }, error: str }, ['error']);
const healthSchema = obj({
  status: {
    enum: ['ok', 'degraded'],
    description:
      'degraded when a dependency does not answer (then 503) or when a LIVE campaign has no fresh reward-token price (prices.unpricedLiveCampaigns; still 200)',
  },
  dependenciesOk: bool,
  reasons: {
    ...arr(str),
    description:
      'Why `status` is degraded, one sentence per cause (an unreachable dependency, LIVE campaigns without a fresh reward-token price); empty when ok. The operations page lists the same causes under "Needs attention"',
  },
  checkedAt: str,
  postgres: check,
  postgresReplica: nullable(
    obj(
      {
        serving: { enum: ['replica', 'primary'], description: 'where lag-tolerant reads go now' },
        reason: {
          enum: ['healthy', 'unchecked', 'down', 'not-receiving', 'lagging', 'check-overdue', 'query-failed'],
        },
        lagMs: nullable(int),
        checkedAt: nullable(str),
        error: nullable(str),
        retriedOnPrimary: int,
      },
      [],
    ),
  ),
  elasticsearch: check,
  chains: arr(obj({ id: { type: 'integer' }, name: str, rpc: check })),
  jobs: arr({ type: 'object' }),
  outbox: any,
  freshness: any,
  prices: nullable(
    obj({
      tracked: int,
      stale: int,
      maxAgeSeconds: int,
      oldestAgeSeconds: nullable(int),
      unpricedLiveCampaigns: obj({
        campaigns: int,
        tokens: arr(obj({ id: str, chainId: int, address: str, symbol: nullable(str), campaigns: int })),
      }),
    }),
  ),
  unknownTvl: {
    ...nullable(
      obj({
        opportunities: int,
        byStatus: arr(obj({ status: { enum: TVL_STATUSES.filter((s) => s !== 'ok') }, opportunities: int })),
      }),
    ),
    description:
      'Opportunities with a LIVE campaign whose TVL is unknown (served as 0 with `tvlRecord.status` saying why), in total and per status, most first; does not degrade `status`. Null when PostgreSQL did not answer',
  },
});

const readySchema = obj({
  status: { enum: ['ok', 'unavailable'] },
  checkedAt: str,
  postgres: check,
  elasticsearch: check,
});

/** GET /v4/health — 200 when every dependency answers, 503 otherwise (usable by a load balancer). */
export function healthRouter(deps: ApiDeps): Router {
  const router = new Router();
  router.get(
    '/health',
    describe({
      summary: 'Health of PostgreSQL, Elasticsearch, RPCs and jobs',
      description:
        "Overall state of the service: PostgreSQL, Elasticsearch, each chain's RPC, job freshness and prices; 200 while every dependency answers, 503 with the same body otherwise (for operators; load balancers use /v4/health/ready). One computation answers every caller for 1 s (`checkedAt` is its time); rate-limited like any route. Error texts are redacted: no URL credentials, paths or query strings, no request bodies.",
      cacheControl: 'no-store',
      response: healthSchema,
      responses: { 503: { description: 'A dependency does not answer', schema: healthSchema } },
    }),
    healthHandler(deps),
  );
  router.get(
    '/health/live',
    describe({
      summary: "Liveness: the process is up (no I/O; for an orchestrator's liveness probe)",
      description:
        'Always 200 while the process serves HTTP, whatever the load and whatever the dependencies: restart the process only when this stops answering. Not rate-limited.',
      cacheControl: 'no-store',
      response: obj({ status: { enum: ['ok'] }, uptimeSeconds: { type: 'integer' }, pid: { type: 'integer' } }),
    }),
    livenessHandler(),
  );
  router.get(
    '/health/ready',
    describe({
      summary: "Readiness: PostgreSQL and Elasticsearch answer (for a load balancer's readiness probe)",
      description:
        '200 when both answer within 2 s, 503 otherwise: take the instance out of rotation, do not restart it. RPCs and jobs are in /v4/health. Not rate-limited.',
      cacheControl: 'no-store',
      response: readySchema,
      responses: { 503: { description: 'A dependency does not answer', schema: readySchema } },
    }),
    readinessHandler(deps),
  );
  return router;
}
