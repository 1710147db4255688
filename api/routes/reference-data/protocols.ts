import Router from '@koa/router';
import { curatedProtocolOf, type Protocol, registeredProtocol, typesOfProtocol } from '../../../domain/protocols.js';
import { recordAudit } from '../../../domain/tables/audit.js';
import { enqueueOutbox } from '../../../domain/tables/outbox.js';
import { curationOf, loadProtocolCurations } from '../../../domain/tables/protocolOverrides.js';
import type { PgClient } from '../../../internal/pg.js';
import { auditActorOf } from '../../audit/auditActor.js';
import { nowSeconds, type ApiDeps } from '../../deps.js';
import { NotFoundError } from '../../errors.js';
import type { AuthState } from '../../identity/types.js';
import { requireBackOffice } from '../../middleware/auth.js';
import { describe } from '../../openapi/describe.js';
import { protocolSchema } from '../../openapi/records.js';
import { type Handler, validate } from '../../validate.js';
import { aggregateProtocols } from '../../reads/protocols/aggregate.js';
import { loadOpportunityFacts } from '../../reads/protocols/repo.js';
import { serializeProtocol } from '../../reads/protocols/serialize.js';
import type { Actor } from './tokenWrites.js';
import { writeAndPublish } from '../../search/writeAndPublish.js';

const SLUG = { type: 'string', pattern: '^[a-z0-9][a-z0-9-]{0,63}$', 'x-accepts': 'a lower-case slug' } as const;

/** PATCH /v4/protocols/{id}: a registered protocol's id. */
export const protocolIdParams = {
  type: 'object',
  additionalProperties: false,
  required: ['id'],
  properties: { id: SLUG },
} as const;

/** PATCH /v4/protocols/{id} body: the hosted service's `name`, `icon`, `url`, `description`, plus `tags`. */
export const patchProtocolBody = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 100 },
    icon: { type: 'string', maxLength: 500, 'x-accepts': 'an icon URL (up to 500 characters)' },
    url: { type: 'string', pattern: '^https?://', maxLength: 500, 'x-accepts': 'an http(s) URL' },
    description: { type: 'string', maxLength: 2000 },
    tags: { type: 'array', items: SLUG, maxItems: 20, uniqueItems: true },
  },
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
  const opportunities = await tx.query<{ id: string }>('SELECT id FROM opportunities WHERE type = ANY($1::text[])', [
    typesOfProtocol(base.id),
  ]);
  await enqueueOutbox(
    tx,
    'opportunity',
    opportunities.rows.map((r) => r.id),
  );
  return after;
}

/** PATCH /v4/protocols/{id} (back office): 404 for an id the registry does not know. */
function patchProtocolHandler(
  deps: ApiDeps,
): Handler<{ params: typeof protocolIdParams; body: typeof patchProtocolBody }> {
  return async (ctx) => {
    const { params, body } = ctx.state;
    const base = registeredProtocol(params.id);
    if (!base) throw new NotFoundError(`No protocol ${params.id}`);
    await writeAndPublish(deps, (tx) => curateProtocol(tx, auditActorOf(ctx), base, body));
    const [facts, curations] = await Promise.all([
      loadOpportunityFacts(deps.pg, nowSeconds(deps)),
      loadProtocolCurations(deps.pg),
    ]);
    const all = { page: 0, items: Number.MAX_SAFE_INTEGER, test: true, excludeSubCampaigns: false, id: base.id };
    const [aggregate] = aggregateProtocols(facts, all, curations);
    const curated = curatedProtocolOf(typesOfProtocol(base.id)[0]!, curations)!;
    ctx.body = serializeProtocol(
      aggregate ?? { ...curated, dailyRewards: 0, numberOfLiveCampaigns: 0, opportunityLiveTags: [] },
    );
  };
}

/**
 * Protocol curation (back office). Protocols are a registry in code (domain/protocols.ts: the protocol of each
 * campaign type naming one), so there is nothing a job could overwrite: the corrections live in protocol_overrides
 * and every read (GET /v4/protocols and its count) and the projector (opportunity documents embed their protocol)
 * apply them over the registry. The hosted service's POST and DELETE have no counterpart: an opportunity's protocol
 * follows from its campaign type, so a protocol added here would have no opportunity, and a registered one cannot be
 * removed. Tables: protocol_overrides, opportunities, back_office_audit, search_outbox.
 */
export function protocolCurationRouter(deps: ApiDeps): Router<AuthState> {
  const router = new Router<AuthState>();
  router.patch(
    ['/protocols/:id', '/protocols/:id/'],
    describe({
      summary: "Correct a protocol's name, icon, links, description or tags (back office)",
      description:
        "Sets any of `name`, `icon`, `url`, `description` and `tags` of a registered protocol (GET /v4/protocols; 404 for another id); fields left out keep their value. Served by GET /v4/protocols and embedded in its opportunities' documents, which are republished before the answer (deposit links built from the protocol's app keep the registry's `url`). Audit-logged (GET /v4/audit).",
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
