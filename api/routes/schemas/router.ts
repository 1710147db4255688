import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';

/** /v4/schemas routes (read API issue). */
export function schemasRouter(_deps: ApiDeps): Router {
  return new Router();
}
