import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import { validate } from '../../validate.js';
import { userRewardsHandler } from './handlers.js';
import { createProofCache } from './proofs.js';
import { userParams, userRewardsQuery } from './schema.js';

/** /v4/users: public reads of a wallet's rewards, profile and on-chain claim settings (api-facts §3.1). */
export function usersRouter(deps: ApiDeps): Router {
  const router = new Router();
  const proofs = createProofCache({ db: deps.pg });
  const both = (path: string) => [path, `${path}/`];
  router.get(both('/users/:address/rewards'), validate({ params: userParams, query: userRewardsQuery }), userRewardsHandler(deps, proofs));
  return router;
}
