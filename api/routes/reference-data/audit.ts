import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import type { AuthState } from '../../identity/types.js';
import { requireBackOffice } from '../../middleware/auth.js';
import { describe } from '../../openapi/describe.js';
import { any, arr, isoDate, nullable, obj, oneOfValues, str } from '../../openapi/schemaHelpers.js';
import { type Handler, validate } from '../../validate.js';

const ENTITY = {
  type: 'string',
  pattern: '^[a-z][a-z-]{0,39}$',
  'x-accepts': 'an entity name (token, chain, creator, opportunity, …)',
} as const;

/** GET /v4/audit query: filters and the keyset (`before`: the `next` of the previous page). */
export const auditQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    entity: ENTITY,
    entityId: { type: 'string', minLength: 1, maxLength: 200 },
    before: { type: 'string', pattern: '^[1-9][0-9]{0,18}$', 'x-accepts': 'the `next` of the previous page' },
    limit: { type: 'integer', minimum: 1, maximum: 200, default: 50 },
  },
} as const;

const entrySchema = obj({
  id: str,
  at: isoDate,
  actor: str,
  requestId: nullable(str),
  action: oneOfValues(['create', 'update', 'delete']),
  entity: str,
  entityId: str,
  before: nullable(any),
  after: nullable(any),
});

type AuditRow = {
  id: string;
  at: Date;
  actor: string;
  request_id: string | null;
  action: string;
  entity: string;
  entity_id: string;
  before: unknown;
  after: unknown;
};

/**
 * GET /v4/audit: newest first, one page of `limit` entries with id below `before`, read on the primary (a write just
 * made is listed). Served by back_office_audit's indexes (entity, entity_id, id DESC) / (entity, id DESC) / its key.
 */
function auditHandler(deps: ApiDeps): Handler<{ query: typeof auditQuery }> {
  return async (ctx) => {
    const q = ctx.state.query;
    const values: unknown[] = [];
    const where: string[] = [];
    const arg = (v: unknown) => `$${values.push(v)}`;
    if (q.entity) where.push(`entity = ${arg(q.entity)}`);
    if (q.entityId !== undefined) where.push(`entity_id = ${arg(q.entityId)}`);
    if (q.before) where.push(`id < ${arg(q.before)}::bigint`);
    // Ordered by the table's bigint id: a bare `id` would be the selected text (10 before 9).
    const { rows } = await deps.pg.query<AuditRow>(
      `SELECT id::text, at, actor, request_id, action, entity, entity_id, before, after FROM back_office_audit
       ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY back_office_audit.id DESC LIMIT ${arg(q.limit + 1)}`,
      values,
    );
    const page = rows.slice(0, q.limit);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = {
      entries: page.map((r) => ({
        id: r.id,
        at: r.at.toISOString(),
        actor: r.actor,
        requestId: r.request_id,
        action: r.action,
        entity: r.entity,
        entityId: r.entity_id,
        before: r.before,
        after: r.after,
      })),
      next: rows.length > q.limit ? page[page.length - 1]!.id : null,
    };
  };
}

/**
 * GET /v4/audit (back office): every back-office write (reference data, opportunity curation, …) with who made it,
 * when, and the entity before and after, newest first. Table: back_office_audit.
 */
export function auditRouter(deps: ApiDeps): Router<AuthState> {
  const router = new Router<AuthState>();
  router.get(
    ['/audit', '/audit/'],
    describe({
      summary: 'The back-office audit log, newest first (back office)',
      description:
        "Every back-office write (tokens, chains, creators, opportunity curation, …), newest first: `actor` (`back-office`, or `back-office:<name>` from the writer's `x-audit-actor`, with the session's wallet when one was sent), `action` (create, update, delete), the `entity` and `entityId`, and the entity `before` (null for a creation) and `after` (null for a deletion). Filter by `entity` and `entityId`; at most `limit` entries a page, `next` is the `before` of the next page (null on the last).",
      cacheControl: 'no-store',
      response: obj({ entries: arr(entrySchema), next: nullable(str) }),
      example: {
        entries: [
          {
            id: '42',
            at: '2026-11-29T15:00:00.000Z',
            actor: 'back-office:ops@example.org',
            requestId: 'b1f0c6a2-5d1e-4c55-9a53-4f7e1c1f0c11',
            action: 'update',
            entity: 'token',
            entityId: '1234567890',
            before: { icon: '', verified: false },
            after: { icon: 'https://icons.example.org/usdc.svg', verified: true },
          },
        ],
        next: '41',
      },
    }),
    requireBackOffice,
    validate({ query: auditQuery }),
    auditHandler(deps),
  );
  return router;
}
