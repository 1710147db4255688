import type { PgClient } from '../../../internal/pg.js';
import { programFieldsOf } from '../../../domain/tables/programs.js';
import { auditActorOf } from '../../audit/auditActor.js';
import { indexNames } from '../../../internal/es.js';
import type { ApiDeps } from '../../deps.js';
import { NotFoundError } from '../../errors.js';
import { updateDocumentNow } from '../../search/updateDocumentNow.js';
import { writeAndPublish } from '../../search/writeAndPublish.js';
import type { Handler } from '../../validate.js';
import { type Curation, editTags, replaceCuration } from './curationRepo.js';
import { resolveOpportunityId } from '../../reads/opportunities/readContext.js';
import type { curationBody, opportunityIdParams, tagsBody } from '../../reads/opportunities/schema.js';

/**
 * After a curation write: 404 when the opportunity does not exist, else its document's fields are
 * updated at once (so the `tags` / `programSlugs` filters and `activePrograms` see the change) and the new values answered.
 */
async function answerCuration(deps: ApiDeps, write: string, id: string, pathId: string, row: Curation | undefined) {
  if (!row) throw new NotFoundError(`No opportunity ${pathId}`);
  const programs = (await programFieldsOf(deps.pg, [id])).get(id);
  await updateDocumentNow(deps, {
    index: write,
    id,
    doc: { tags: row.tags, programSlugs: row.program_slugs, activePrograms: programs?.activePrograms ?? [] },
    what: 'curation',
  });
  return { id, tags: row.tags, programSlugs: row.program_slugs, mainProtocolId: row.main_protocol_id };
}

/** PATCH /v4/opportunities/{id} (back office): replaces its `tags` and/or `programSlugs`, sets its `mainProtocolId`. */
export function replaceCurationHandler(
  deps: ApiDeps,
): Handler<{ params: typeof opportunityIdParams; body: typeof curationBody }> {
  const write = indexNames(deps.config.esIndexPrefix, 'opportunities').write;
  return async (ctx) => {
    const { body, params } = ctx.state;
    const id = resolveOpportunityId(params.id);
    // Through writeAndPublish: a protocol set changes the document's `protocol` and `mainProtocol`, rebuilt before the answer.
    const run = <T>(write: (tx: PgClient) => Promise<T>) => writeAndPublish(deps, write);
    const row = await replaceCuration(
      run,
      auditActorOf(ctx),
      id,
      body.tags ?? null,
      body.programSlugs ?? null,
      body.mainProtocolId,
    );
    ctx.body = await answerCuration(deps, write, id, params.id, row);
  };
}

/** PATCH /v4/opportunities/{id}/tags (back office): adds and removes tags. */
export function editTagsHandler(deps: ApiDeps): Handler<{ params: typeof opportunityIdParams; body: typeof tagsBody }> {
  const write = indexNames(deps.config.esIndexPrefix, 'opportunities').write;
  return async (ctx) => {
    const { body, params } = ctx.state;
    const id = resolveOpportunityId(params.id);
    const row = await editTags(deps.pg, auditActorOf(ctx), id, body.add ?? [], body.remove ?? []);
    ctx.body = await answerCuration(deps, write, id, params.id, row);
  };
}
