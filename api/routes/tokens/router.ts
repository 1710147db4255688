import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';

/** /v4/tokens routes (read API issue). */
export function tokensRouter(_deps: ApiDeps): Router {
  return new Router();
}
