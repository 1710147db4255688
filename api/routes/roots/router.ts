import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import { validate } from '../../validate.js';
import { listRootsHandler } from './handlers.js';
import { listRootsQuery } from './schema.js';

/** /v4/roots: reward roots of a chain over a time window. Table roots. */
export function rootsRouter(deps: ApiDeps): Router {
  const router = new Router();
  router.get(['/roots', '/roots/'], validate({ query: listRootsQuery }), listRootsHandler(deps));
  return router;
}
