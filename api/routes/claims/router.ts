import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import { validate } from '../../validate.js';
import { claimsHistoryHandler, claimsStatusHandler, countClaimsHandler, countTotalHandler, latestClaimsHandler, listClaimsHandler } from './handlers.js';
import { chainIdsQuery, countQuery, historyParams, listClaimsQuery } from './schema.js';

/** /v4/claims: indexed Claimed deltas and the claims pipeline's state (api-facts §3.3). Tables claims, roots, reward_breakdowns, cursors, blocks. */
export function claimsRouter(deps: ApiDeps): Router {
  const router = new Router();
  const both = (path: string) => [path, `${path}/`];
  const noBody = { type: 'object', additionalProperties: false, properties: {} } as const;
  router.get(both('/claims'), validate({ query: listClaimsQuery }), listClaimsHandler(deps));
  router.get(both('/claims/history/:address'), validate({ params: historyParams, query: chainIdsQuery }), claimsHistoryHandler(deps));
  router.get(both('/claims/latest'), validate({ query: chainIdsQuery }), latestClaimsHandler(deps));
  router.get(both('/claims/status'), validate({ query: chainIdsQuery }), claimsStatusHandler(deps));
  router.get(both('/claims/count/total'), validate({ query: noBody }), countTotalHandler(deps));
  router.get(both('/claims/count'), validate({ query: countQuery }), countClaimsHandler(deps));
  return router;
}
