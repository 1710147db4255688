import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';

/** /v4/node routes (read API issue). */
export function nodeRouter(_deps: ApiDeps): Router {
  return new Router();
}
