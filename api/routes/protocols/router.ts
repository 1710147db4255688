import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';

/** /v4/protocols routes (read API issue). */
export function protocolsRouter(_deps: ApiDeps): Router {
  return new Router();
}
