import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import { validate } from '../../validate.js';
import { getTokenHandler, listTokensHandler } from './handlers.js';
import { listTokensQuery, tokenIdParams } from './schema.js';

/** /v4/tokens routes: list/search (`/tokens`, `/tokens/`) and one token by id. Tables tokens, token_prices. */
export function tokensRouter(deps: ApiDeps): Router {
  const router = new Router();
  router.get(['/tokens', '/tokens/'], validate({ query: listTokensQuery }), listTokensHandler(deps));
  router.get('/tokens/:id', validate({ params: tokenIdParams }), getTokenHandler(deps));
  return router;
}
