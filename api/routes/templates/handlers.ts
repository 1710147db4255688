import { TEMPLATES } from '../../../domain/templates.js';
import type { Handler } from '../../validate.js';
import type { listTemplatesQuery } from '../../reads/templates/schema.js';
import { filterTemplates, serializeTemplate } from '../../reads/templates/serialize.js';

/** GET /v4/templates: the static registry's templates matching the filters (no storage read). */
export function listTemplatesHandler(): Handler<{ query: typeof listTemplatesQuery }> {
  return (ctx) => {
    ctx.body = filterTemplates(TEMPLATES, ctx.state.query).map(serializeTemplate);
  };
}
