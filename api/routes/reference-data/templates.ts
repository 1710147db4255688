import { randomUUID } from 'node:crypto';
import Router from '@koa/router';
import { actionOf, CAMPAIGN_TYPE_NAMES, OPPORTUNITY_ACTIONS } from '../../../domain/campaignTypes.js';
import { recordAudit } from '../../../domain/tables/audit.js';
import {
  isBuiltInTemplate,
  TEMPLATE_COLUMNS,
  type TemplateRow,
  templateOfRow,
} from '../../../domain/tables/campaignTemplates.js';
import type { ProtocolCatalogue } from '../../../domain/protocols.js';
import { loadProtocolCatalogue } from '../../../domain/tables/protocolCatalogue.js';
import type { PgClient } from '../../../internal/pg.js';
import { auditActorOf } from '../../audit/auditActor.js';
import type { ApiDeps } from '../../deps.js';
import { PROBLEMS } from '../../problems/registry.js';
import { AppError, NotFoundError } from '../../errors.js';
import type { AuthState } from '../../identity/types.js';
import { requireBackOffice } from '../../middleware/auth.js';
import { describe } from '../../openapi/describe.js';
import { withTransaction } from '../../../internal/pg.js';
import { requireProtocol } from '../../reads/protocols/requireProtocol.js';
import { PROTOCOL_SLUG } from '../../reads/protocols/schema.js';
import { templateSchema } from '../../reads/templates/responses.js';
import { TEMPLATE_ID, templateIdParams } from '../../reads/templates/schema.js';
import { serializeTemplate } from '../../reads/templates/serialize.js';
import { type Handler, validate } from '../../validate.js';
import type { Actor } from './tokenWrites.js';

const CAMPAIGN_TYPES = Object.keys(CAMPAIGN_TYPE_NAMES)
  .map(Number)
  .filter((t) => t !== 0);

const TEMPLATE_FIELDS = {
  name: { type: 'string', minLength: 1, maxLength: 200 },
  icon: { type: 'string', maxLength: 500, 'x-accepts': 'an icon URL (up to 500 characters)' },
  description: { type: 'string', maxLength: 2000 },
  baseConfig: {
    type: 'object',
    required: ['campaignType'],
    maxProperties: 50,
    properties: { campaignType: { type: 'integer', enum: CAMPAIGN_TYPES, 'x-accepts': 'a known campaign type id' } },
    'x-accepts': 'the part of a campaign configuration the template fixes, with its `campaignType`',
  },
  completionConfig: {
    type: 'object',
    maxProperties: 50,
    additionalProperties: { type: 'object' },
    'x-accepts': 'each field the creator still provides → its JSON Schema (an object)',
  },
  protocolId: PROTOCOL_SLUG,
  action: { type: 'string', enum: OPPORTUNITY_ACTIONS },
} as const;

/** POST /v4/templates body (hosted create body, plus an optional `id`): `name`, `baseConfig` and `completionConfig` required. */
export const createTemplateBody = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'baseConfig', 'completionConfig'],
  properties: { id: TEMPLATE_ID, ...TEMPLATE_FIELDS },
} as const;

/** PATCH (and PUT) /v4/templates/{id} body: any of the template's fields; fields left out keep their value. */
export const patchTemplateBody = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: TEMPLATE_FIELDS,
} as const;

type Fields = {
  name?: string;
  icon?: string;
  description?: string;
  baseConfig?: Record<string, unknown>;
  completionConfig?: Record<string, unknown>;
  protocolId?: string;
  action?: string;
};

/** 409 naming why a built-in template cannot be written. */
function refuseBuiltIn(id: string, what: string): void {
  if (isBuiltInTemplate(id))
    throw new AppError(
      PROBLEMS.CONFLICT,
      `Template ${id} is built in (defined in code with its campaign type's encoding): it cannot be ${what}; POST a template of your own`,
    );
}

const serialized = (row: TemplateRow, catalogue: ProtocolCatalogue) => serializeTemplate(templateOfRow(row, catalogue));

async function createTemplate(tx: PgClient, by: Actor, body: Fields & { id?: string }) {
  const id = body.id ?? randomUUID();
  if (isBuiltInTemplate(id))
    throw new AppError(PROBLEMS.CONFLICT, `Template ${id} exists (built in): choose another id`);
  const catalogue = await requireProtocol(tx, 'protocolId', body.protocolId);
  const typeName = CAMPAIGN_TYPE_NAMES[Number(body.baseConfig!['campaignType'])]!;
  const { rows } = await tx.query<TemplateRow>(
    `INSERT INTO campaign_templates (id, name, icon, description, base_config, completion_config, protocol_id, action)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7, $8) ON CONFLICT (id) DO NOTHING RETURNING ${TEMPLATE_COLUMNS}`,
    [
      id,
      body.name,
      body.icon ?? null,
      body.description ?? '',
      JSON.stringify(body.baseConfig),
      JSON.stringify(body.completionConfig),
      body.protocolId ?? null,
      body.action ?? actionOf(typeName),
    ],
  );
  if (!rows[0]) throw new AppError(PROBLEMS.CONFLICT, `Template ${id} exists: PATCH /v4/templates/${id} it`);
  const after = serialized(rows[0], catalogue);
  await recordAudit(tx, { ...by, action: 'create', entity: 'template', entityId: id, before: null, after });
  return after;
}

const COLUMN_OF = {
  name: 'name',
  icon: 'icon',
  description: 'description',
  baseConfig: 'base_config',
  completionConfig: 'completion_config',
  protocolId: 'protocol_id',
  action: 'action',
} as const;

async function updateTemplate(tx: PgClient, by: Actor, id: string, body: Fields) {
  refuseBuiltIn(id, 'changed');
  const select = `SELECT ${TEMPLATE_COLUMNS} FROM campaign_templates WHERE id = $1 FOR UPDATE`;
  const row = (await tx.query<TemplateRow>(select, [id])).rows[0];
  if (!row) return null;
  const catalogue = await requireProtocol(tx, 'protocolId', body.protocolId);
  const changes = (Object.keys(COLUMN_OF) as (keyof typeof COLUMN_OF)[])
    .filter((f) => body[f] !== undefined)
    .map((f) => [COLUMN_OF[f], typeof body[f] === 'object' ? JSON.stringify(body[f]) : body[f]] as const);
  const { rows } = await tx.query<TemplateRow>(
    `UPDATE campaign_templates SET ${changes.map(([c], i) => `${c} = $${i + 2}`).join(', ')}, updated_at = now()
     WHERE id = $1 RETURNING ${TEMPLATE_COLUMNS}`,
    [id, ...changes.map(([, v]) => v)],
  );
  const [before, after] = [serialized(row, catalogue), serialized(rows[0]!, catalogue)];
  await recordAudit(tx, { ...by, action: 'update', entity: 'template', entityId: id, before, after });
  return after;
}

async function deleteTemplate(tx: PgClient, by: Actor, id: string) {
  refuseBuiltIn(id, 'deleted');
  const { rows } = await tx.query<TemplateRow>(
    `DELETE FROM campaign_templates WHERE id = $1 RETURNING ${TEMPLATE_COLUMNS}`,
    [id],
  );
  if (!rows[0]) return null;
  const before = serialized(rows[0], await loadProtocolCatalogue(tx));
  await recordAudit(tx, { ...by, action: 'delete', entity: 'template', entityId: id, before, after: null });
  return before;
}

/**
 * Template writes (back office). Built-in templates are code (domain/templates.ts: each a campaign type with its
 * encoding): they cannot be changed or deleted (409 saying so). An operator's templates live in campaign_templates,
 * which only these routes write; GET /v4/templates serves them after the built-in ones. No search document embeds a
 * template, so nothing is republished. Every write is audit-logged in its transaction. Tables: campaign_templates,
 * protocols, protocol_overrides, back_office_audit.
 */
export function templateCurationRouter(deps: ApiDeps): Router<AuthState> {
  const router = new Router<AuthState>();
  const created: Handler<{ body: typeof createTemplateBody }> = async (ctx) => {
    const by = auditActorOf(ctx);
    ctx.body = await withTransaction(deps.pg, (tx) =>
      createTemplate(tx, by, ctx.state.body as Fields & { id?: string }),
    );
    ctx.status = 201;
  };
  const patched: Handler<{ params: typeof templateIdParams; body: typeof patchTemplateBody }> = async (ctx) => {
    const { params, body } = ctx.state;
    const by = auditActorOf(ctx);
    const answer = await withTransaction(deps.pg, (tx) => updateTemplate(tx, by, params.id, body as Fields));
    if (!answer) throw new NotFoundError(`No template ${params.id}`);
    ctx.body = answer;
  };
  const deleted: Handler<{ params: typeof templateIdParams }> = async (ctx) => {
    const { id } = ctx.state.params;
    const by = auditActorOf(ctx);
    const answer = await withTransaction(deps.pg, (tx) => deleteTemplate(tx, by, id));
    if (!answer) throw new NotFoundError(`No template ${id}`);
    ctx.body = answer;
  };
  const example = {
    id: 'acme-lend-supply',
    name: 'Supply to an Acme Lend market',
    description: 'Reward suppliers of an Acme Lend market.',
    baseConfig: { campaignType: 1, campaignData: { whitelist: [], blacklist: [], url: 'https://app.acme.example' } },
    completionConfig: { targetToken: { type: 'string', pattern: '^0x[0-9a-fA-F]{40}$' } },
    protocolId: 'acme-lend',
    action: 'LEND',
  };
  router.post(
    ['/templates', '/templates/'],
    describe({
      summary: 'Write a campaign template (back office)',
      description:
        "Adds a template served by GET /v4/templates after the built-in ones: `name`, `baseConfig` (the part of a campaign configuration it fixes, with a known `campaignType`) and `completionConfig` (each field the creator still provides → its JSON Schema) are required; `icon`, `description`, `protocolId` (a protocol of GET /v4/protocols, else a 400 naming it) and `action` (default: its campaign type's) are optional. `id` (a lower-case slug) is generated (a UUID) when left out; one taken, built in or written, is a 409. Audit-logged (GET /v4/audit, `before` null).",
      status: 201,
      response: templateSchema,
      errors: [409],
      bodyExamples: { template: { summary: 'A lending template of an added protocol', value: example } },
    }),
    requireBackOffice,
    validate({ body: createTemplateBody }),
    created,
  );
  for (const method of ['patch', 'put'] as const)
    router[method](
      ['/templates/:id', '/templates/:id/'],
      describe({
        summary:
          method === 'patch'
            ? "Change a written template's fields (back office)"
            : "Change a written template's fields (back office; the hosted service's verb, same as PATCH)",
        description:
          "Sets any of `name`, `icon`, `description`, `baseConfig`, `completionConfig`, `protocolId` and `action` of a template the back office wrote; fields left out keep their value (PUT, the hosted service's verb, does the same). A built-in template is a 409 (it is code: POST a template of your own), an unknown id a 404, a `protocolId` outside GET /v4/protocols a 400 naming it. Audit-logged (GET /v4/audit).",
        response: templateSchema,
        errors: [404, 409],
        bodyExamples: { rename: { summary: 'A new name', value: { name: 'Supply to Acme Lend' } } },
      }),
      requireBackOffice,
      validate({ params: templateIdParams, body: patchTemplateBody }),
      patched,
    );
  router.delete(
    ['/templates/:id', '/templates/:id/'],
    describe({
      summary: 'Delete a written template (back office)',
      description:
        'Deletes a template the back office wrote and answers it as it was. A built-in template is a 409 (it is code, not data), an unknown id a 404. Audit-logged (GET /v4/audit, `after` null).',
      response: templateSchema,
      errors: [404, 409],
    }),
    requireBackOffice,
    validate({ params: templateIdParams }),
    deleted,
  );
  return router;
}
