import { loadTemplates } from '../../../domain/tables/campaignTemplates.js';
import type { ApiDeps } from '../../deps.js';
import { NotFoundError } from '../../errors.js';
import type { Handler } from '../../validate.js';
import type { listTemplatesQuery, templateIdParams } from '../../reads/templates/schema.js';
import { filterTemplates, serializeTemplate } from '../../reads/templates/serialize.js';

/** GET /v4/templates: built-in and back-office templates matching the filters. Tables campaign_templates, protocol_overrides, protocols. */
export function listTemplatesHandler(deps: ApiDeps): Handler<{ query: typeof listTemplatesQuery }> {
  return async (ctx) => {
    ctx.body = filterTemplates(await loadTemplates(deps.pg), ctx.state.query).map(serializeTemplate);
  };
}

/** GET /v4/templates/{id}: 404 for an id neither built in nor written. */
export function getTemplateHandler(deps: ApiDeps): Handler<{ params: typeof templateIdParams }> {
  return async (ctx) => {
    const template = (await loadTemplates(deps.pg)).find((t) => t.id === ctx.state.params.id);
    if (!template) throw new NotFoundError(`No template ${ctx.state.params.id}`);
    ctx.body = serializeTemplate(template);
  };
}
