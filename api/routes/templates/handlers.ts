import type { Context } from 'koa';
import { TEMPLATES } from '../../../domain/templates.js';
import type { ListTemplatesQuery } from './schema.js';
import { filterTemplates, serializeTemplate } from './serialize.js';

/** GET /v4/templates: the static registry's templates matching the filters (no storage read). */
export function listTemplatesHandler() {
  return (ctx: Context): void => {
    ctx.body = filterTemplates(TEMPLATES, ctx.state.query as ListTemplatesQuery).map(serializeTemplate);
  };
}
