import Router from '@koa/router';
import { recordAudit } from '../../../domain/tables/audit.js';
import type { PgClient } from '../../../internal/pg.js';
import { auditActorOf } from '../../audit/auditActor.js';
import type { ApiDeps } from '../../deps.js';
import { AppError, NotFoundError } from '../../errors.js';
import type { AuthState } from '../../identity/types.js';
import { requireBackOffice } from '../../middleware/auth.js';
import { describe } from '../../openapi/describe.js';
import { arr, nullable, num, obj, str } from '../../openapi/schemaHelpers.js';
import { fields, type Handler, validate } from '../../validate.js';
import type { Actor } from './tokenWrites.js';
import { writeAndPublish } from '../../search/writeAndPublish.js';
import { PROBLEMS } from '../../problems/registry.js';

const creatorSchema = obj({
  id: str,
  name: str,
  icon: nullable(str),
  rebateFee: num,
  addresses: arr(str),
  tags: arr(str),
});

const SLUG = '^[a-z0-9][a-z0-9-]{0,63}$';
const editable = {
  name: { type: 'string', minLength: 1, maxLength: 100 },
  icon: { type: 'string', maxLength: 500, 'x-accepts': 'an icon URL (up to 500 characters)' },
  rebateFee: { type: 'number', minimum: 0, maximum: 100 },
  addresses: { type: 'array', items: fields.address, minItems: 1, maxItems: 100, uniqueItems: true },
  tags: {
    type: 'array',
    items: { type: 'string', pattern: '^[a-z0-9][a-z0-9-]{0,63}$', 'x-accepts': 'a lower-case slug' },
    maxItems: 50,
    uniqueItems: true,
  },
} as const;

/** POST /v4/creators body (the hosted service's, plus our `tags`; `hubspotCompanyId` is not kept here). */
export const createCreatorBody = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'name', 'addresses'],
  properties: {
    id: { type: 'string', pattern: SLUG, 'x-accepts': 'a lower-case slug (a-z, 0-9, -; up to 64)' },
    ...editable,
  },
} as const;

/** PATCH /v4/creators/{creator} body: at least one field. */
export const patchCreatorBody = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: editable,
} as const;

/** PATCH / DELETE /v4/creators/{creator}: a registered creator's id. */
export const creatorIdParams = {
  type: 'object',
  additionalProperties: false,
  required: ['creator'],
  properties: { creator: { type: 'string', pattern: SLUG, 'x-accepts': 'a registered creator id (lower-case slug)' } },
} as const;

type CreatorRow = {
  id: string;
  name: string;
  icon: string | null;
  rebate_fee: number;
  addresses: string[];
  tags: string[];
};
const COLUMNS = 'id, name, icon, rebate_fee, addresses, tags';
const COLUMN_OF = {
  name: 'name',
  icon: 'icon',
  rebateFee: 'rebate_fee',
  addresses: 'addresses',
  tags: 'tags',
} as const;

const serialize = (r: CreatorRow) => ({
  id: r.id,
  name: r.name,
  icon: r.icon,
  rebateFee: r.rebate_fee,
  addresses: r.addresses,
  tags: r.tags,
});

/** Addresses (lower case) already registered to another creator: one address names one creator. */
async function claimedElsewhere(tx: PgClient, id: string, addresses: string[]): Promise<void> {
  const { rows } = await tx.query<{ id: string; address: string }>(
    'SELECT id, a AS address FROM creators, unnest(addresses) AS a WHERE id <> $1 AND a = ANY($2::text[]) ORDER BY a LIMIT 1',
    [id, addresses],
  );
  if (rows[0])
    throw new AppError(PROBLEMS.CONFLICT, `Address ${rows[0].address} belongs to creator ${rows[0].id}`, {
      errors: [{ field: 'addresses', message: `${rows[0].address} belongs to creator ${rows[0].id}` }],
    });
}

/** Queues the campaigns created from `addresses` and their opportunities (documents carry the creator's id and tags). */
async function queueDocuments(tx: PgClient, addresses: string[]): Promise<void> {
  await tx.query(
    `WITH affected AS (SELECT id, opportunity_id FROM campaigns_current WHERE lower(creator) = ANY($1::text[]))
     INSERT INTO search_outbox (entity, entity_id)
     SELECT 'campaign', id FROM affected UNION SELECT 'opportunity', opportunity_id FROM affected WHERE opportunity_id IS NOT NULL`,
    [addresses],
  );
}

async function createCreator(tx: PgClient, by: Actor, body: Record<string, unknown> & { id: string }) {
  const addresses = (body.addresses as string[]).map((a) => a.toLowerCase());
  await claimedElsewhere(tx, body.id, addresses);
  const { rows } = await tx.query<CreatorRow>(
    `INSERT INTO creators (id, name, icon, rebate_fee, addresses, tags) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (id) DO NOTHING RETURNING ${COLUMNS}`,
    [body.id, body.name, body.icon ?? null, body.rebateFee ?? 0, addresses, body.tags ?? []],
  );
  if (!rows[0]) throw new AppError(PROBLEMS.CONFLICT, `Creator ${body.id} exists: PATCH it`);
  await recordAudit(tx, {
    ...by,
    action: 'create',
    entity: 'creator',
    entityId: body.id,
    before: null,
    after: serialize(rows[0]),
  });
  await queueDocuments(tx, addresses);
  return rows[0];
}

async function updateCreator(tx: PgClient, by: Actor, id: string, body: Record<string, unknown>) {
  const before = (await tx.query<CreatorRow>(`SELECT ${COLUMNS} FROM creators WHERE id = $1 FOR UPDATE`, [id])).rows[0];
  if (!before) return null;
  const changes = Object.entries(COLUMN_OF)
    .filter(([field]) => field in body)
    .map(([field, column]) => [
      column,
      field === 'addresses' ? (body.addresses as string[]).map((a) => a.toLowerCase()) : body[field],
    ]) as [string, unknown][];
  const addresses = changes.find(([c]) => c === 'addresses')?.[1] as string[] | undefined;
  if (addresses) await claimedElsewhere(tx, id, addresses);
  const { rows } = await tx.query<CreatorRow>(
    `UPDATE creators SET ${changes.map(([c], i) => `${c} = $${i + 2}`).join(', ')}, updated_at = now() WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, ...changes.map(([, v]) => v)],
  );
  const after = rows[0]!;
  await recordAudit(tx, {
    ...by,
    action: 'update',
    entity: 'creator',
    entityId: id,
    before: serialize(before),
    after: serialize(after),
  });
  await queueDocuments(tx, [...new Set([...before.addresses, ...after.addresses])]);
  return after;
}

async function deleteCreator(tx: PgClient, by: Actor, id: string) {
  const before = (await tx.query<CreatorRow>(`SELECT ${COLUMNS} FROM creators WHERE id = $1 FOR UPDATE`, [id])).rows[0];
  if (!before) return null;
  const credits = await tx.query('SELECT 1 FROM credit_accounts WHERE creator_id = $1', [id]);
  if (credits.rowCount)
    throw new AppError(
      PROBLEMS.CONFLICT,
      `Creator ${id} has a credit account: deleting it would erase the balance and its history`,
    );
  await tx.query('DELETE FROM creators WHERE id = $1', [id]);
  await recordAudit(tx, {
    ...by,
    action: 'delete',
    entity: 'creator',
    entityId: id,
    before: serialize(before),
    after: null,
  });
  await queueDocuments(tx, before.addresses);
  return before;
}

/**
 * Creator curation (back office). Creators are written only here and by the quick start's seed (scripts/seedCreators.ts,
 * run by hand); no job touches them. One address belongs to one creator (another's is a 409 naming `addresses`).
 * Deleting a creator detaches it: its campaigns are served again under their creator address (an implicit creator),
 * nothing is orphaned; a creator with a credit account is refused (409), its balance and history would go with it.
 * Every write is audit-logged in its transaction and republishes the campaigns of the creator's addresses (before and
 * after) and their opportunities before answering. Tables: creators, credit_accounts, campaigns_current,
 * back_office_audit, search_outbox.
 */
export function creatorCurationRouter(deps: ApiDeps): Router<AuthState> {
  const router = new Router<AuthState>();
  const created: Handler<{ body: typeof createCreatorBody }> = async (ctx) => {
    const row = await writeAndPublish(deps, (tx) => createCreator(tx, auditActorOf(ctx), ctx.state.body));
    ctx.status = 201;
    ctx.body = serialize(row);
  };
  const patched: Handler<{ params: typeof creatorIdParams; body: typeof patchCreatorBody }> = async (ctx) => {
    const { params, body } = ctx.state;
    const row = await writeAndPublish(deps, (tx) => updateCreator(tx, auditActorOf(ctx), params.creator, body));
    if (!row) throw new NotFoundError(`Creator ${params.creator} not found`);
    ctx.body = serialize(row);
  };
  const deleted: Handler<{ params: typeof creatorIdParams }> = async (ctx) => {
    const { creator } = ctx.state.params;
    const row = await writeAndPublish(deps, (tx) => deleteCreator(tx, auditActorOf(ctx), creator));
    if (!row) throw new NotFoundError(`Creator ${creator} not found`);
    ctx.body = serialize(row);
  };
  router.post(
    ['/creators', '/creators/'],
    describe({
      summary: 'Register a creator (back office)',
      description:
        "Registers a named creator: its `id` (a lower-case slug), `name`, the `addresses` it creates campaigns from, and optionally `icon`, `rebateFee` (percent) and `tags`. An id taken, or an address registered to another creator, is a 409. Audit-logged (GET /v4/audit); the addresses' campaigns and their opportunities are republished (they carry the creator's id and tags) before the answer.",
      status: 201,
      response: creatorSchema,
      errors: [409],
      bodyExamples: {
        creator: {
          summary: 'A named creator',
          value: {
            id: 'acme',
            name: 'Acme Protocol',
            addresses: ['0x1111111111111111111111111111111111111111'],
            tags: ['dex'],
          },
        },
      },
    }),
    requireBackOffice,
    validate({ body: createCreatorBody }),
    created,
  );
  router.patch(
    ['/creators/:creator', '/creators/:creator/'],
    describe({
      summary: "Correct a creator's name, icon, addresses, fee or tags (back office)",
      description:
        'Sets any of `name`, `icon`, `rebateFee`, `addresses` (the whole list) and `tags` of a registered creator. Audit-logged (GET /v4/audit); the campaigns of its addresses before and after, and their opportunities, are republished before the answer.',
      response: creatorSchema,
      errors: [404, 409],
      bodyExamples: { rename: { summary: 'A new name', value: { name: 'Acme Labs' } } },
    }),
    requireBackOffice,
    validate({ params: creatorIdParams, body: patchCreatorBody }),
    patched,
  );
  router.delete(
    ['/creators/:creator', '/creators/:creator/'],
    describe({
      summary: 'Delete a registered creator (back office)',
      description:
        'Deletes a registered creator and answers it as it was. Its campaigns stay, served under their creator address (an implicit creator), and are republished before the answer. A creator with a credit account is refused (409): its balance and history would be erased with it. Audit-logged (GET /v4/audit).',
      response: creatorSchema,
      errors: [404, 409],
    }),
    requireBackOffice,
    validate({ params: creatorIdParams }),
    deleted,
  );
  return router;
}
