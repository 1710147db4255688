import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import { validate } from '../../validate.js';
import { listCampaignsHandler } from './handlers.js';
import { listCampaignsQuery } from './schema.js';

/** Campaign routes mounted under /v4. */
export function campaignsRouter(deps: ApiDeps): Router {
  const router = new Router();
  router.get('/campaigns', validate({ query: listCampaignsQuery }), listCampaignsHandler(deps));
  return router;
}
