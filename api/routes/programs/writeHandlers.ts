import { auditActorOf } from '../../audit/auditActor.js';
import type { ApiDeps } from '../../deps.js';
import { writeAndPublish } from '../../search/writeAndPublish.js';
import type { Handler } from '../../validate.js';
import { programRecords } from '../../reads/programs/programRecords.js';
import { createProgram, type ProgramRow, updateProgram } from '../../reads/programs/repo.js';
import type { createProgramBody, programParams, updateProgramBody } from '../../reads/programs/schema.js';

/** The program record as reads serve it (its members' documents were republished before: writeAndPublish). */
async function answerWrite(deps: ApiDeps, program: ProgramRow) {
  return (await programRecords(deps, [program]))[0]!;
}

/** POST /v4/programs (back office): 201 with the new program. */
export function createProgramHandler(deps: ApiDeps): Handler<{ body: typeof createProgramBody }> {
  return async (ctx) => {
    const write = await writeAndPublish(deps, (tx) => createProgram(tx, auditActorOf(ctx), ctx.state.body));
    ctx.status = 201;
    ctx.body = await answerWrite(deps, write);
  };
}

/** PATCH /v4/programs/{idOrSlug} (back office): the program as it now is. */
export function updateProgramHandler(
  deps: ApiDeps,
): Handler<{ params: typeof programParams; body: typeof updateProgramBody }> {
  return async (ctx) => {
    const { params, body } = ctx.state;
    const write = await writeAndPublish(deps, (tx) => updateProgram(tx, auditActorOf(ctx), params.idOrSlug, body));
    ctx.body = await answerWrite(deps, write);
  };
}
