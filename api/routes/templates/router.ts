import Router from '@koa/router';
import { TEMPLATES } from '../../../indexer/templates.js';
import type { ApiDeps } from '../../deps.js';
import { validate } from '../../validate.js';
import { listTemplatesQuery, type ListTemplatesQuery } from './schema.js';
import { filterTemplates, serializeTemplate } from './serialize.js';

/** /v4/templates: campaign templates from the static registry (indexer/templates.ts); no storage read. */
export function templatesRouter(_deps: ApiDeps): Router {
  const router = new Router();
  router.get(['/templates', '/templates/'], validate({ query: listTemplatesQuery }), (ctx) => {
    ctx.body = filterTemplates(TEMPLATES, ctx.state.query as ListTemplatesQuery).map(serializeTemplate);
  });
  return router;
}
