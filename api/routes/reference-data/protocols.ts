import Router from '@koa/router';
import { type Protocol, registeredProtocol, typesOfProtocol } from '../../../domain/protocols.js';
import { recordAudit } from '../../../domain/tables/audit.js';
import { enqueueOutboxOf } from '../../../domain/tables/outbox.js';
import { PROTOCOL_COLUMNS } from '../../../domain/tables/protocolCatalogue.js';
import { curationOf } from '../../../domain/tables/protocolOverrides.js';
import type { PgClient } from '../../../internal/pg.js';
import { auditActorOf } from '../../audit/auditActor.js';
import { nowSeconds, type ApiDeps } from '../../deps.js';
import { PROBLEMS } from '../../problems/registry.js';
import { AppError, NotFoundError } from '../../errors.js';
import type { AuthState } from '../../identity/types.js';
import { requireBackOffice } from '../../middleware/auth.js';
import { describe } from '../../openapi/describe.js';
import { protocolSchema } from '../../openapi/records.js';
import { type Handler, validate } from '../../validate.js';
import { protocolRecord } from '../../reads/protocols/protocolRecord.js';
import { PROTOCOL_SLUG, protocolIdParams } from '../../reads/protocols/schema.js';
import type { Actor } from './tokenWrites.js';
import { writeAndPublish } from '../../search/writeAndPublish.js';

const SLUG = PROTOCOL_SLUG;
export { protocolIdParams };

const PROTOCOL_FIELDS = {
  name: { type: 'string', minLength: 1, maxLength: 100 },
  icon: { type: 'string', maxLength: 500, 'x-accepts': 'an icon URL (up to 500 characters)' },
  url: { type: 'string', pattern: '^https?://', maxLength: 500, 'x-accepts': 'an http(s) URL' },
  description: { type: 'string', maxLength: 2000 },
  tags: { type: 'array', items: SLUG, maxItems: 20, uniqueItems: true },
} as const;

/** PATCH /v4/protocols/{id} body: the hosted service's `name`, `icon`, `url`, `description`, plus `tags`. */
export const patchProtocolBody = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: PROTOCOL_FIELDS,
} as const;

/** POST /v4/protocols body: the hosted CreateProtocolDto (`id`, `name`, `icon`, `url`, `description`, `tags`), all required. */
export const createProtocolBody = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'name', 'icon', 'url', 'description', 'tags'],
  properties: { id: SLUG, ...PROTOCOL_FIELDS },
} as const;

type Body = { name?: string; icon?: string; url?: string; description?: string; tags?: string[] };
const COLUMNS = ['name', 'icon', 'description', 'url', 'tags'] as const;

/** The protocol as served before and after: the registry's values with the stored corrections. */
function effective(base: Protocol, row: Parameters<typeof curationOf>[0] | undefined): Protocol {
  return row ? { ...base, ...curationOf(row) } : base;
}

/**
 * Stores the corrections given over the previous ones (protocol_overrides), records the protocol before/after and
 * queues every opportunity of its campaign types (their documents embed it).
 */
async function curateProtocol(tx: PgClient, by: Actor, base: Protocol, body: Body): Promise<Protocol> {
  const select = 'SELECT id, name, icon, description, url, tags FROM protocol_overrides WHERE id = $1';
  const before = (await tx.query(`${select} FOR UPDATE`, [base.id])).rows[0];
  const values = COLUMNS.map((c) => body[c] ?? null);
  const { rows } = await tx.query(
    `INSERT INTO protocol_overrides (id, name, icon, description, url, tags) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (id) DO UPDATE SET name = COALESCE($2, protocol_overrides.name), icon = COALESCE($3, protocol_overrides.icon),
       description = COALESCE($4, protocol_overrides.description), url = COALESCE($5, protocol_overrides.url),
       tags = COALESCE($6, protocol_overrides.tags), updated_at = now()
     RETURNING id, name, icon, description, url, tags`,
    [base.id, ...values],
  );
  const after = effective(base, rows[0]);
  await recordAudit(tx, {
    ...by,
    action: 'update',
    entity: 'protocol',
    entityId: base.id,
    before: effective(base, before),
    after,
  });
  await queueOpportunitiesOf(tx, base.id);
  return after;
}

/** Queues every opportunity whose protocol is `id` (the one set on it, else its type's): their documents embed it. */
async function queueOpportunitiesOf(tx: PgClient, id: string): Promise<void> {
  await enqueueOutboxOf(
    tx,
    'opportunity',
    'SELECT id FROM opportunities WHERE main_protocol_id = $1 OR (main_protocol_id IS NULL AND type = ANY($2::text[]))',
    [id, typesOfProtocol(id)],
  );
}

/** Edits an added protocol's row (table protocols) with the fields given; undefined when there is no such row. */
async function editAddedProtocol(tx: PgClient, by: Actor, id: string, body: Body): Promise<Protocol | undefined> {
  const before = (await tx.query<Protocol>(`SELECT ${PROTOCOL_COLUMNS} FROM protocols WHERE id = $1 FOR UPDATE`, [id]))
    .rows[0];
  if (!before) return undefined;
  const { rows } = await tx.query<Protocol>(
    `UPDATE protocols SET name = COALESCE($2, name), icon = COALESCE($3, icon), description = COALESCE($4, description),
       url = COALESCE($5, url), tags = COALESCE($6, tags), updated_at = now() WHERE id = $1 RETURNING ${PROTOCOL_COLUMNS}`,
    [id, ...COLUMNS.map((c) => body[c] ?? null)],
  );
  const after = rows[0]!;
  await recordAudit(tx, { ...by, action: 'update', entity: 'protocol', entityId: id, before, after });
  await queueOpportunitiesOf(tx, id);
  return after;
}

/** Adds a protocol (table protocols): 409 when the registry or the table holds the id. */
async function addProtocol(tx: PgClient, by: Actor, body: Protocol): Promise<Protocol> {
  if (registeredProtocol(body.id))
    throw new AppError(PROBLEMS.CONFLICT, `Protocol ${body.id} exists (registered): PATCH /v4/protocols/${body.id} it`);
  const { rows } = await tx.query<Protocol>(
    `INSERT INTO protocols (id, name, icon, description, url, tags) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (id) DO NOTHING RETURNING ${PROTOCOL_COLUMNS}`,
    [body.id, body.name, body.icon, body.description, body.url, body.tags],
  );
  const after = rows[0];
  if (!after) throw new AppError(PROBLEMS.CONFLICT, `Protocol ${body.id} exists: PATCH /v4/protocols/${body.id} it`);
  await recordAudit(tx, { ...by, action: 'create', entity: 'protocol', entityId: body.id, before: null, after });
  await queueOpportunitiesOf(tx, body.id);
  return after;
}

/** The protocol as GET /v4/protocols/{id} serves it, once the write is published. */
async function answer(deps: ApiDeps, id: string) {
  const record = await protocolRecord(deps.pg, nowSeconds(deps), id);
  if (!record) throw new NotFoundError(`No protocol ${id}`);
  return record;
}

/**
 * PATCH /v4/protocols/{id} (back office): a registered protocol's corrections go to protocol_overrides, an added
 * protocol's row is edited itself; 404 for an id the catalogue does not hold.
 */
function patchProtocolHandler(
  deps: ApiDeps,
): Handler<{ params: typeof protocolIdParams; body: typeof patchProtocolBody }> {
  return async (ctx) => {
    const { params, body } = ctx.state;
    const base = registeredProtocol(params.id);
    const by = auditActorOf(ctx);
    const written = await writeAndPublish(deps, (tx) =>
      base ? curateProtocol(tx, by, base, body) : editAddedProtocol(tx, by, params.id, body),
    );
    if (!written) throw new NotFoundError(`No protocol ${params.id}`);
    ctx.body = await answer(deps, params.id);
  };
}

/** POST /v4/protocols (back office): 201 with the protocol as served; 409 for an id taken. */
function createProtocolHandler(deps: ApiDeps): Handler<{ body: typeof createProtocolBody }> {
  return async (ctx) => {
    const { body } = ctx.state;
    await writeAndPublish(deps, (tx) => addProtocol(tx, auditActorOf(ctx), { ...body, tags: [...body.tags] }));
    ctx.status = 201;
    ctx.body = await answer(deps, body.id);
  };
}

/**
 * Protocol curation (back office). The catalogue (domain/protocols.ts protocolCatalogue) is the registry in code (the
 * protocol of each campaign type naming one), corrected through protocol_overrides, plus the protocols added here
 * (table protocols). No job writes either table, so nothing overwrites or erases them; every read (GET /v4/protocols,
 * /{id}, /count), the templates and the projector (opportunity documents embed their protocol) resolve ids against
 * the catalogue. An opportunity takes an added protocol when the back office sets it (PATCH /v4/opportunities/{id}
 * `mainProtocolId`). The hosted DELETE has no counterpart: a registered protocol cannot be removed, and an added one
 * may be named by opportunities and templates. Tables: protocols, protocol_overrides, opportunities,
 * back_office_audit, search_outbox.
 */
export function protocolCurationRouter(deps: ApiDeps): Router<AuthState> {
  const router = new Router<AuthState>();
  router.post(
    ['/protocols', '/protocols/'],
    describe({
      summary: 'Add a protocol (back office)',
      description:
        "Adds a protocol to the catalogue: its `id` (a lower-case slug), `name`, `icon`, `url` (http or https), `description` and `tags`, all required (the hosted CreateProtocolDto). An id the registry or the catalogue holds is a 409. It is served at once by GET /v4/protocols (zero figures until an opportunity counts for it), /v4/protocols/{id} and /v4/protocols/count; an opportunity takes it with PATCH /v4/opportunities/{id} `mainProtocolId` (its document then embeds this protocol's name and icon); a template names it with `protocolId`. Answers the protocol as GET /v4/protocols/{id} serves it. Audit-logged (GET /v4/audit, `before` null).",
      status: 201,
      response: protocolSchema,
      errors: [409],
      bodyExamples: {
        protocol: {
          summary: 'A lending protocol',
          value: {
            id: 'acme-lend',
            name: 'Acme Lend',
            icon: 'https://icons.example/acme-lend.svg',
            url: 'https://app.acme.example',
            description: 'Acme Lend markets incentivized through reward campaigns.',
            tags: ['lending'],
          },
        },
      },
    }),
    requireBackOffice,
    validate({ body: createProtocolBody }),
    createProtocolHandler(deps),
  );
  router.patch(
    ['/protocols/:id', '/protocols/:id/'],
    describe({
      summary: "Correct a protocol's name, icon, links, description or tags (back office)",
      description:
        "Sets any of `name`, `icon`, `url`, `description` and `tags` of a protocol of the catalogue (a registered one or one POST /v4/protocols added; 404 for another id); fields left out keep their value. Served by GET /v4/protocols and embedded in its opportunities' documents, which are republished before the answer (deposit links built from a registered protocol's app keep the registry's `url`). Audit-logged (GET /v4/audit).",
      response: protocolSchema,
      errors: [404],
      bodyExamples: {
        links: {
          summary: 'Its app and tags',
          value: { url: 'https://app.morpho.org', tags: ['lending', 'vaults'] },
        },
      },
    }),
    requireBackOffice,
    validate({ params: protocolIdParams, body: patchProtocolBody }),
    patchProtocolHandler(deps),
  );
  return router;
}
