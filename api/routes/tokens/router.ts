import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import { validate } from '../../validate.js';
import { getTokenHandler, listTokensHandler } from './handlers.js';
import { listTokensQuery, tokenIdParams } from './schema.js';
import { describe } from '../../openapi/describe.js';
import { tokenSchema } from '../../openapi/records.js';
import { arr } from '../../openapi/schemaHelpers.js';

/** /v4/tokens routes: list/search (`/tokens`, `/tokens/`) and one token by id. Tables tokens, token_prices. */
export function tokensRouter(deps: ApiDeps): Router {
  const router = new Router();
  router.get(
    ['/tokens', '/tokens/'],
    describe({
      summary: 'Search tokens, or resolve several ids',
      description:
        'Tokens matching the filters, or the tokens of several `id`s at once. An address we do not know, given as `search` with `chainId`, is read from chain and returned with a temporary id `tmp-{chainId}-{address}`.',
      response: arr(tokenSchema),
    }),
    validate({ query: listTokensQuery }),
    listTokensHandler(deps),
  );
  router.get(
    '/tokens/:id',
    describe({
      summary: 'One token by id',
      description: 'One token by id. A temporary `tmp-{chainId}-{address}` id is a 400: such tokens are not stored.',
      response: tokenSchema,
    }),
    validate({ params: tokenIdParams }),
    getTokenHandler(deps),
  );
  return router;
}
