import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';

/** /v4/templates routes (read API issue). */
export function templatesRouter(_deps: ApiDeps): Router {
  return new Router();
}
