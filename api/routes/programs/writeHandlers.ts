import { programFieldsOf } from '../../../domain/tables/programs.js';
import { indexNames } from '../../../internal/es.js';
import { auditActorOf } from '../../audit/auditActor.js';
import type { ApiDeps } from '../../deps.js';
import { updateDocumentNow } from '../../search/updateDocumentNow.js';
import type { Handler } from '../../validate.js';
import { programRecords } from './handlers.js';
import { createProgram, type ProgramWrite, updateProgram } from './repo.js';
import type { createProgramBody, programParams, updateProgramBody } from './schema.js';

/** Documents updated at once in parallel after a program write. */
const UPDATE_CONCURRENCY = 8;

/**
 * After a program write committed (with the outbox entries of the opportunities it touched): their documents'
 * `programSlugs` and `activePrograms` are updated at once and the index refreshed, so the `programSlugs` filter, the
 * opportunities' `activePrograms` and the answer's figures see the change; then the program record is answered. A
 * failed update is logged and left to the projector (updateDocumentNow).
 */
async function answerWrite(deps: ApiDeps, write: ProgramWrite) {
  const index = indexNames(deps.config.esIndexPrefix, 'opportunities').write;
  const fields = await programFieldsOf(deps.pg, write.touched);
  const queue = [...fields.entries()];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift())
      await updateDocumentNow(deps, { index, id: next[0], doc: next[1], what: 'program membership' });
  };
  await Promise.all(Array.from({ length: UPDATE_CONCURRENCY }, worker));
  if (queue.length === 0 && fields.size)
    await deps.es.indices
      .refresh({ index })
      .catch((error: unknown) =>
        deps.logger.warn({ msg: 'opportunities index not refreshed after a program write', err: String(error) }),
      );
  return (await programRecords(deps, [write.program]))[0]!;
}

/** POST /v4/programs (back office): 201 with the new program. */
export function createProgramHandler(deps: ApiDeps): Handler<{ body: typeof createProgramBody }> {
  return async (ctx) => {
    const write = await createProgram(deps.pg, auditActorOf(ctx), ctx.state.body);
    ctx.status = 201;
    ctx.body = await answerWrite(deps, write);
  };
}

/** PATCH /v4/programs/{idOrSlug} (back office): the program as it now is. */
export function updateProgramHandler(
  deps: ApiDeps,
): Handler<{ params: typeof programParams; body: typeof updateProgramBody }> {
  return async (ctx) => {
    const write = await updateProgram(deps.pg, auditActorOf(ctx), ctx.state.params.idOrSlug, ctx.state.body);
    ctx.body = await answerWrite(deps, write);
  };
}
