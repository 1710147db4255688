import Router from '@koa/router';
import { describe } from '../../openapi/describe.js';
import { arr, bool, int, num, nullable, obj, str } from '../../openapi/schemaHelpers.js';
import type { ApiDeps } from '../../deps.js';
import type { AuthState } from '../../identity/types.js';
import { requireBackOffice } from '../../middleware/auth.js';
import { probeDependencies } from '../../reads/internal-dependencies/probeDependencies.js';

/** A probe: `ok` with its latency, plus its facts when it answered or the (redacted) error when not. */
const check = (facts: Record<string, object>) =>
  obj({ ok: bool, latencyMs: num, ...facts, error: str }, [...Object.keys(facts), 'error']);

const dependenciesSchema = obj({
  checkedAt: str,
  attention: arr(obj({ dependency: str, reason: str })),
  postgres: check({}),
  elasticsearch: check({ clusterStatus: { enum: ['green', 'yellow', 'red'] }, nodes: int, unassignedShards: int }),
  chains: arr(obj({ id: int, name: str, rpc: check({ head: int, headTimestamp: nullable(int) }) })),
});

/**
 * GET /internal/dependencies (back office, as /internal/jobs: 401 without the credential, 403 for a
 * wallet session or API key): the state of every dependency, probed on each call (not shared like
 * /health, so "Refresh" on the operations page is a new probe).
 */
export function internalDependenciesRouter(deps: ApiDeps): Router<AuthState> {
  const router = new Router<AuthState>({ prefix: '/internal/dependencies' });
  router.use(requireBackOffice);
  router.get(
    '/',
    describe({
      summary: "Every dependency's state: PostgreSQL, Elasticsearch, each chain's RPC (back office)",
      cacheControl: 'no-store',
      description:
        'Each probe has 2 s: `ok` (reachable), `latencyMs`, and when it answered its facts (Elasticsearch: `clusterStatus` green/yellow/red, `nodes`, `unassignedShards`; an RPC: `head` block and its chain time `headTimestamp`), else `error` (redacted). `attention` names the dependencies to look at first: unreachable ones, then a red cluster. Probed on every call; always 200 (the states are the answer). Example: `{ "attention": [{ "dependency": "rpc:8453", "reason": "base RPC unreachable: no answer within 2000 ms" }], "postgres": { "ok": true, "latencyMs": 2 }, … }`.',
      response: dependenciesSchema,
    }),
    async (ctx) => {
      ctx.set('cache-control', 'no-store');
      ctx.body = await probeDependencies(deps);
    },
  );
  return router;
}
