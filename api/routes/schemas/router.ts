import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import { validate } from '../../validate.js';
import { listSchemaGroupsHandler } from './handlers.js';
import { schemasQuery } from './schema.js';
import { describe } from '../../openapi/describe.js';
import { arr, obj, str } from '../../openapi/schemaHelpers.js';

/** /v4/schemas (beta): the schema groups of domain/campaignData/schemas.ts; no storage read. */
export function schemasRouter(_deps: ApiDeps): Router {
  const router = new Router();
  router.get(
    ['/schemas', '/schemas/'],
    describe({
      summary: 'Schema groups (beta): JSON schemas of campaign inputs per enum value',
      description:
        'Beta: each schema group binds an enum to one JSON Schema (draft 2020-12) per value: `campaignType` (campaign data), `campaignTypeExtended`, `distributionMethod`, `computeScoreMethod`, `hookType`, `processorType`. These are the schemas POST /v4/campaigns/generate-payload validates with.',
      response: arr(
        obj({ name: str, description: str, enum: arr({ type: ['string', 'number'] }), schemas: { type: 'object' } }),
      ),
    }),
    validate({ query: schemasQuery }),
    listSchemaGroupsHandler(),
  );
  return router;
}
