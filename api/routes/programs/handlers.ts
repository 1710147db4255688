import { listPrograms, getProgram } from '../../reads/programs/programRecords.js';
import { readPgOf, type ApiDeps } from '../../deps.js';
import { NotFoundError } from '../../errors.js';
import type { Handler } from '../../validate.js';
import { countProgramRows } from '../../reads/programs/repo.js';
import type { listProgramsQuery, programParams } from '../../reads/programs/schema.js';

/** GET /v4/programs. Tables programs, chains; indices opportunities, campaigns. */
export function listProgramsHandler(deps: ApiDeps): Handler<{ query: typeof listProgramsQuery }> {
  return async (ctx) => {
    ctx.body = await listPrograms(deps, ctx.state.query);
  };
}

/** GET /v4/programs/count: a bare JSON number (the filters of the list, paging ignored). Table programs. */
export function countProgramsHandler(deps: ApiDeps): Handler<{ query: typeof listProgramsQuery }> {
  return async (ctx) => {
    ctx.body = await countProgramRows(readPgOf(deps), ctx.state.query);
  };
}

/** GET /v4/programs/{idOrSlug}: 404 when there is no such program. */
export function getProgramHandler(deps: ApiDeps): Handler<{ params: typeof programParams }> {
  return async (ctx) => {
    const program = await getProgram(deps, ctx.state.params.idOrSlug);
    if (!program) throw new NotFoundError(`No program ${ctx.state.params.idOrSlug}`);
    ctx.body = program;
  };
}
