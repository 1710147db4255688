import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import type { AuthState } from '../../identity/types.js';
import { requireBackOffice } from '../../middleware/auth.js';
import { describe } from '../../openapi/describe.js';
import { programSchema } from '../../openapi/records.js';
import { arr, int } from '../../openapi/schemaHelpers.js';
import { validate } from '../../validate.js';
import { countProgramsHandler, getProgramHandler, listProgramsHandler } from './handlers.js';
import { MAX_MEMBERS } from '../../reads/programs/members.js';
import { createProgramBody, listProgramsQuery, programParams, updateProgramBody } from '../../reads/programs/schema.js';
import { createProgramHandler, updateProgramHandler } from './writeHandlers.js';

const membership =
  "An opportunity belongs to a program when its `programSlugs` hold the program's slug (set here or by `PATCH /v4/opportunities/{id}`); opportunities carry their programs in `activePrograms`.";

/**
 * /v4/programs: incentive programs (named groups of opportunities) with their figures; back-office creation and
 * update (audit-logged, re-projected before the answer). Tables programs, opportunities, back_office_audit, search_outbox.
 */
export function programsRouter(deps: ApiDeps): Router<AuthState> {
  const router = new Router<AuthState>();
  router.get(
    ['/programs', '/programs/'],
    describe({
      summary: 'Incentive programs with their opportunities and totals',
      description: `Programs by name, filtered by \`name\` (substring, any case) and \`slugs\` (comma list), each with its opportunities (at most ${MAX_MEMBERS} over a page) and its totals (daily rewards, live campaigns, TVL, opportunities, campaigns), every total the sum over its opportunities' public figures: a private campaign counts in none. ${membership}`,
      response: arr(programSchema),
    }),
    validate({ query: listProgramsQuery }),
    listProgramsHandler(deps),
  );
  router.get(
    ['/programs/count', '/programs/count/'],
    describe({
      summary: 'Number of programs',
      description:
        'Number of programs matching `name` and `slugs` (as GET /v4/programs; paging ignored), a bare JSON number.',
      response: int,
    }),
    validate({ query: listProgramsQuery }),
    countProgramsHandler(deps),
  );
  router.get(
    ['/programs/:idOrSlug', '/programs/:idOrSlug/'],
    describe({
      summary: 'One program by id or slug',
      description: `One program (by its uuid or its slug) with its opportunities and totals; 404 when there is none. ${membership}`,
      response: programSchema,
      errors: [404],
    }),
    validate({ params: programParams }),
    getProgramHandler(deps),
  );
  router.post(
    ['/programs', '/programs/'],
    describe({
      summary: 'Create a program (back office)',
      description: `Creates a program (back office); \`slug\` defaults to one made of \`name\` (409 when taken) and \`opportunities\` (ids as GET /v4/opportunities/{id} takes them; 400 naming an unknown one) join it. Audit-logged; the opportunities' search documents carry it before the answer. ${membership}`,
      status: 201,
      response: programSchema,
      errors: [409],
      bodyExamples: {
        program: {
          summary: 'A program with two opportunities',
          value: {
            name: 'Arbitrum LTIPP',
            slug: 'arb-ltipp',
            description: 'Long-term incentives pilot',
            icon: 'https://example.org/arb.svg',
            opportunities: ['42161-UNISWAP_V4-0x…'],
          },
        },
      },
    }),
    requireBackOffice,
    validate({ body: createProgramBody }),
    createProgramHandler(deps),
  );
  router.patch(
    ['/programs/:idOrSlug', '/programs/:idOrSlug/'],
    describe({
      summary: 'Update a program (back office)',
      description: `Replaces the given fields of a program (back office), adds \`opportunitiesToAdd\` and removes \`opportunitiesToRemove\` (400 naming an unknown one); a new \`slug\` (409 when taken) replaces the old one in every member's \`programSlugs\`. Audit-logged (before and after, members included); the opportunities' search documents follow before the answer. ${membership}`,
      response: programSchema,
      errors: [404, 409],
    }),
    requireBackOffice,
    validate({ params: programParams, body: updateProgramBody }),
    updateProgramHandler(deps),
  );
  return router;
}
