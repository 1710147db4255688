import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import { validate } from '../../validate.js';
import { getTemplateHandler, listTemplatesHandler } from './handlers.js';
import { listTemplatesQuery, templateIdParams } from '../../reads/templates/schema.js';
import { describe } from '../../openapi/describe.js';
import { templateSchema } from '../../reads/templates/responses.js';
import { arr } from '../../openapi/schemaHelpers.js';

/**
 * /v4/templates: campaign templates, the built-in ones (domain/templates.ts) then those the back office wrote
 * (table campaign_templates, api/routes/reference-data/templates.ts).
 */
export function templatesRouter(deps: ApiDeps): Router {
  const router = new Router();
  router.get(
    ['/templates', '/templates/'],
    describe({
      summary: 'Campaign templates matching the filters',
      description:
        'Campaign templates (a campaign type with preset campaign data) matching `protocolId`, `search` and `action`: the built-in ones first, then those the back office wrote (POST /v4/templates), oldest first. A template carries its protocol as GET /v4/protocols/{id} describes it (back-office corrections and added protocols included). A built-in template id can be used as a `campaignsParams` key of POST /v4/campaigns/generate-payload.',
      response: arr(templateSchema),
    }),
    validate({ query: listTemplatesQuery }),
    listTemplatesHandler(deps),
  );
  router.get(
    ['/templates/:id', '/templates/:id/'],
    describe({
      summary: 'One campaign template',
      description: 'A template of GET /v4/templates by id, built in or written by the back office; 404 for another id.',
      response: templateSchema,
      errors: [404],
    }),
    validate({ params: templateIdParams }),
    getTemplateHandler(deps),
  );
  return router;
}
