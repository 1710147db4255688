import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import type { AuthState } from '../../identity/types.js';
import { requireBackOffice } from '../../middleware/auth.js';
import { describe } from '../../openapi/describe.js';
import { arr, nullable, obj, str } from '../../openapi/schemaHelpers.js';
import { validate } from '../../validate.js';
import { editTagsHandler, replaceCurationHandler } from './curationHandlers.js';
import { curationBody, opportunityIdParams, tagsBody } from '../../reads/opportunities/schema.js';

const curationSchema = obj({ id: str, tags: arr(str), programSlugs: arr(str), mainProtocolId: nullable(str) });

/**
 * Back-office curation of opportunities (back office only, docs/api-behaviour.md#credentials-and-guards): `PATCH
 * /opportunities/{id}` replaces its `tags` and/or `programSlugs`, `PATCH /opportunities/{id}/tags` adds and removes
 * tags (lower-case slugs). The write and the opportunity's outbox entry commit together; the document's fields are also
 * updated at once, so the `tags` / `programSlugs` filters see the change. Tables: opportunities, search_outbox.
 */
export function opportunityCurationRouter(deps: ApiDeps): Router<AuthState> {
  const router = new Router<AuthState>();
  router.patch(
    '/opportunities/:id',
    describe({
      summary: 'Replace the tags, program slugs or protocol of an opportunity (back office)',
      description:
        "Replaces the tags and/or the program slugs of an opportunity, and/or sets its protocol (`mainProtocolId`, the hosted override's field: a protocol of GET /v4/protocols, one POST /v4/protocols added included, else a 400 naming it; null gives it back its campaign type's). Its document is republished before the answer (its `protocol` and `mainProtocol`, the `mainProtocolId` filter, GET /v4/protocols' figures). Audit-logged (GET /v4/audit).",
      bodyExamples: {
        protocol: { summary: 'Count it for an added protocol', value: { mainProtocolId: 'acme-lend' } },
      },
      response: curationSchema,
      errors: [404],
    }),
    requireBackOffice,
    validate({ params: opportunityIdParams, body: curationBody }),
    replaceCurationHandler(deps),
  );
  router.patch(
    '/opportunities/:id/tags',
    describe({
      summary: 'Add and remove tags of an opportunity (back office)',
      description: 'Adds and removes tags of an opportunity (back office); the search index is updated at once.',
      response: curationSchema,
      errors: [404],
    }),
    requireBackOffice,
    validate({ params: opportunityIdParams, body: tagsBody }),
    editTagsHandler(deps),
  );
  return router;
}
