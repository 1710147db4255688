import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import { validate } from '../../validate.js';
import { listRootsHandler } from './handlers.js';
import { listRootsQuery } from './schema.js';
import { describe } from '../../openapi/describe.js';
import { arr, bool, decimal, hex, int, obj } from '../../openapi/schemaHelpers.js';

/** /v4/roots: reward roots of a chain over a time window. Table roots. */
export function rootsRouter(deps: ApiDeps): Router {
  const router = new Router();
  router.get(
    ['/roots', '/roots/'],
    describe({
      summary: 'Reward roots of a chain over a time window',
      description: 'The reward roots of `chainId` recorded between `fromTimestamp` and `toTimestamp` (Unix seconds).',
      response: arr(obj({ root: hex, chainId: int, epoch: int, timestamp: decimal, isLatest: bool })),
    }),
    validate({ query: listRootsQuery }),
    listRootsHandler(deps),
  );
  return router;
}
