import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';

/** /v4/rewards routes (read API issue). */
export function rewardsRouter(_deps: ApiDeps): Router {
  return new Router();
}
