import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import { validate } from '../../validate.js';
import { listTemplatesHandler } from './handlers.js';
import { listTemplatesQuery } from '../../reads/templates/schema.js';
import { describe } from '../../openapi/describe.js';
import { any, arr, obj, str } from '../../openapi/schemaHelpers.js';

const templateSchema = obj(
  {
    id: str,
    name: str,
    icon: str,
    description: str,
    baseConfig: any,
    completionConfig: any,
    protocolId: str,
    protocol: { type: 'object' },
    action: str,
  },
  ['icon', 'protocolId', 'protocol'],
);

/** /v4/templates: campaign templates from the static registry (domain/templates.ts); no storage read. */
export function templatesRouter(_deps: ApiDeps): Router {
  const router = new Router();
  router.get(
    ['/templates', '/templates/'],
    describe({
      summary: 'Campaign templates matching the filters',
      description:
        'Campaign templates (a campaign type with preset campaign data) matching `protocolId`, `search` and `action`. A template id can be used as a `campaignsParams` key of POST /v4/campaigns/generate-payload.',
      response: arr(templateSchema),
    }),
    validate({ query: listTemplatesQuery }),
    listTemplatesHandler(),
  );
  return router;
}
