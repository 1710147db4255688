import Router from '@koa/router';
import { toChainRecord } from '../../../domain/documents/records.js';
import { currentChainRows } from '../../chainRecords.js';
import { nowSeconds, type ApiDeps } from '../../deps.js';
import { validate } from '../../validate.js';
import { listChainsQuery, type ListChainsQuery } from './schema.js';
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
    describe({ summary: 'Supported chains with their live campaign count', response: arr(chainSchema) }),
    validate({ query: listChainsQuery }),
    async (ctx) => {
      const query = ctx.state.query as ListChainsQuery;
      const rows = await currentChainRows(deps, nowSeconds(deps));
      const needle = query.name?.toLowerCase();
      ctx.body = rows
        .filter((r) => (query.test || !r.isTest) && (!needle || r.name.toLowerCase().includes(needle)))
        .map(toChainRecord);
    },
  );
  return router;
}
