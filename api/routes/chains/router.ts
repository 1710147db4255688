import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import { validate } from '../../validate.js';
import { listChainsHandler } from './handlers.js';
import { listChainsQuery } from '../../reads/chains/schema.js';
import { describe } from '../../openapi/describe.js';
import { chainSchema } from '../../openapi/records.js';
import { arr } from '../../openapi/schemaHelpers.js';

/**
 * GET /v4/chains — supported chains with their live campaign count from indexed data.
 * `name` matches case-insensitively as a substring; test chains only with `test=true`.
 * Tables: chains, campaigns.
 */
export function chainsRouter(deps: ApiDeps): Router {
  const router = new Router();
  router.get(
    '/chains',
    describe({
      summary: 'Supported chains with their live campaign count',
      description:
        'Every configured chain with its name, icon, block explorers and live campaign count. `test=true` also lists test chains; `name` filters by name.',
      response: arr(chainSchema),
    }),
    validate({ query: listChainsQuery }),
    listChainsHandler(deps),
  );
  return router;
}
