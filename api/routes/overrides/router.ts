import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import { validate } from '../../validate.js';
import { checkOverrideHandler, parseJsonConfigFields, previousConfigsHandler } from './handlers.js';
import { checkOverrideBody, previousConfigsParams } from './schema.js';
import { describe } from '../../openapi/describe.js';
import { arr, bool, int, nullable, obj, str } from '../../openapi/schemaHelpers.js';

const checkSchema = obj({ isValid: bool, errors: arr(obj({ path: str, message: str })) });
const previousConfigSchema = obj({
  id: str,
  campaignId: str,
  opportunityId: nullable(str),
  config: { type: 'object' },
  overrideTimestamp: int,
  Opportunity: nullable(
    obj({ id: str, chainId: int, type: str, identifier: str, name: str, description: str }, ['description']),
  ),
});

/** /v4/overrides routes (docs/api-behaviour.md#overrides): override validation and previous configurations. */
export function overridesRouter(deps: ApiDeps): Router {
  const router = new Router();
  router.post(
    ['/overrides/check', '/overrides/check/'],
    describe({
      summary: 'Check whether a configuration override is allowed',
      description:
        'Checks whether `newConfig` may override `oldConfig`: the reward token and amount cannot change, the start cannot change once the campaign started, and the end must be in the future. Answers `{ isValid, errors: [{ path, message }] }`.',
      response: checkSchema,
    }),
    parseJsonConfigFields,
    validate({ body: checkOverrideBody }),
    checkOverrideHandler(deps),
  );
  router.get(
    ['/overrides/:id/previous-configs', '/overrides/:id/previous-configs/'],
    describe({
      summary: 'Previous configurations of a campaign, oldest first',
      description:
        'The configurations the campaign had before each override, oldest first, each with the opportunity it was linked to then.',
      response: arr(previousConfigSchema),
    }),
    validate({ params: previousConfigsParams }),
    previousConfigsHandler(deps),
  );
  return router;
}
