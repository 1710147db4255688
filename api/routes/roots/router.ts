import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';

/** /v4/roots routes (read API issue). */
export function rootsRouter(_deps: ApiDeps): Router {
  return new Router();
}
