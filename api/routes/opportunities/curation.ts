import Router from '@koa/router';
import type { Context } from 'koa';
import { enqueueOutbox } from '../../../domain/tables/outbox.js';
import { indexNames } from '../../../internal/es.js';
import { withTransaction as inWriteTransaction } from '../../../internal/pg.js';
import type { ApiDeps } from '../../deps.js';
import { NotFoundError } from '../../errors.js';
import type { AuthState } from '../../identity/types.js';
import { requireBackOffice } from '../../middleware/auth.js';
import { describe } from '../../openapi/describe.js';
import { arr, obj, str } from '../../openapi/schemaHelpers.js';
import { validate } from '../../validate.js';
import { updateDocumentNow } from '../../search/updateDocumentNow.js';
import { resolveOpportunityId } from './readContext.js';
import { opportunityIdParams } from './schema.js';

const label = { type: 'string', minLength: 1, maxLength: 64, pattern: '^[a-z0-9][a-z0-9_-]*$' } as const;
const labels = { type: 'array', maxItems: 50, uniqueItems: true, items: label } as const;
const curationBody = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: { tags: labels, programSlugs: labels },
} as const;
const tagsBody = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: { add: labels, remove: labels },
} as const;
const curationSchema = obj({ id: str, tags: arr(str), programSlugs: arr(str) });

type Curation = { tags: string[]; program_slugs: string[] };

/**
 * Back-office curation of opportunities (back office only, docs/api-behaviour.md#credentials-and-guards): `PATCH
 * /opportunities/{id}` replaces its `tags` and/or `programSlugs`, `PATCH /opportunities/{id}/tags` adds and removes
 * tags (lower-case slugs). The write and the opportunity's outbox entry commit together; the document's fields are also
 * updated at once, so the `tags` / `programSlugs` filters see the change. Tables: opportunities, search_outbox.
 */
export function opportunityCurationRouter(deps: ApiDeps): Router<AuthState> {
  const router = new Router<AuthState>();
  const write = indexNames(deps.config.esIndexPrefix, 'opportunities').write;

  const apply = async (ctx: Context, sql: string, values: unknown[]) => {
    const id = resolveOpportunityId((ctx.state['params'] as { id: string }).id);
    const row = await inWriteTransaction(deps.pg, async (tx) => {
      const { rows } = await tx.query<Curation>(`${sql} RETURNING tags, program_slugs`, [id, ...values]);
      if (rows[0]) await enqueueOutbox(tx, 'opportunity', [id]);
      return rows[0];
    });
    if (!row) throw new NotFoundError(`No opportunity ${(ctx.state['params'] as { id: string }).id}`);
    await updateDocumentNow(deps, {
      index: write,
      id,
      doc: { tags: row.tags, programSlugs: row.program_slugs },
      what: 'curation',
    });
    ctx.body = { id, tags: row.tags, programSlugs: row.program_slugs };
  };

  router.patch(
    '/opportunities/:id',
    describe({
      summary: 'Replace the tags and/or program slugs of an opportunity (back office)',
      response: curationSchema,
      errors: [404],
    }),
    requireBackOffice,
    validate({ params: opportunityIdParams, body: curationBody }),
    async (ctx) => {
      const body = ctx.state['body'] as { tags?: string[]; programSlugs?: string[] };
      await apply(
        ctx,
        'UPDATE opportunities SET tags = COALESCE($2, tags), program_slugs = COALESCE($3, program_slugs) WHERE id = $1',
        [body.tags ?? null, body.programSlugs ?? null],
      );
    },
  );
  router.patch(
    '/opportunities/:id/tags',
    describe({
      summary: 'Add and remove tags of an opportunity (back office)',
      response: curationSchema,
      errors: [404],
    }),
    requireBackOffice,
    validate({ params: opportunityIdParams, body: tagsBody }),
    async (ctx) => {
      const body = ctx.state['body'] as { add?: string[]; remove?: string[] };
      await apply(
        ctx,
        `UPDATE opportunities SET tags = ARRAY(SELECT DISTINCT t FROM unnest(tags || $2::text[]) AS t WHERE NOT t = ANY($3::text[]) ORDER BY t) WHERE id = $1`,
        [body.add ?? [], body.remove ?? []],
      );
    },
  );
  return router;
}
