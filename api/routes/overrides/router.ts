import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import { validate } from '../../validate.js';
import { checkOverrideHandler, parseJsonConfigFields, previousConfigsHandler } from './handlers.js';
import { checkOverrideBody, previousConfigsParams } from './schema.js';

/** /v4/overrides routes (spec: Campaign configuration): override validation and previous configurations. */
export function overridesRouter(deps: ApiDeps): Router {
  const router = new Router();
  router.post(['/overrides/check', '/overrides/check/'], parseJsonConfigFields, validate({ body: checkOverrideBody }), checkOverrideHandler(deps));
  router.get(['/overrides/:id/previous-configs', '/overrides/:id/previous-configs/'], validate({ params: previousConfigsParams }), previousConfigsHandler(deps));
  return router;
}
