import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';

/** /v4/creators routes (read API issue). */
export function creatorsRouter(_deps: ApiDeps): Router {
  return new Router();
}
