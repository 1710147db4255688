import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';

/** /v4/opportunities routes (read API issue). */
export function opportunitiesRouter(_deps: ApiDeps): Router {
  return new Router();
}
