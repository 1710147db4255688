import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import { validate } from '../../validate.js';
import { listRewardsHandler } from './handlers.js';
import { listRewardsQuery } from './schema.js';

/** /v4/rewards: reward recipients of one campaign in the live root. */
export function rewardsRouter(deps: ApiDeps): Router {
  const router = new Router();
  router.get(['/rewards', '/rewards/'], validate({ query: listRewardsQuery }), listRewardsHandler(deps));
  return router;
}
