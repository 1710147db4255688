import type { PgClient } from '../../../internal/pg.js';
import { auditActorOf } from '../../audit/auditActor.js';
import type { ApiDeps } from '../../deps.js';
import { NotFoundError } from '../../errors.js';
import { writeAndPublish } from '../../search/writeAndPublish.js';
import type { Handler } from '../../validate.js';
import { type Curation, editTags, replaceCuration } from './curationRepo.js';
import { resolveOpportunityId } from '../../reads/opportunities/readContext.js';
import type { curationBody, opportunityIdParams, tagsBody } from '../../reads/opportunities/schema.js';

/**
 * After a curation write (through writeAndPublish: its document was rebuilt by the projector, the one writer of
 * opportunity documents, so the `tags` / `programSlugs` filters and `activePrograms` see the change): 404 when the
 * opportunity does not exist, else the new values.
 */
function answerCuration(id: string, pathId: string, row: Curation | undefined) {
  if (!row) throw new NotFoundError(`No opportunity ${pathId}`);
  return { id, tags: row.tags, programSlugs: row.program_slugs, mainProtocolId: row.main_protocol_id };
}

/** Runs a curation write in one transaction, then republishes what it queued before the request answers. */
const publishing =
  (deps: ApiDeps) =>
  <T>(write: (tx: PgClient) => Promise<T>) =>
    writeAndPublish(deps, write);

/** PATCH /v4/opportunities/{id} (back office): replaces its `tags` and/or `programSlugs`, sets its `mainProtocolId`. */
export function replaceCurationHandler(
  deps: ApiDeps,
): Handler<{ params: typeof opportunityIdParams; body: typeof curationBody }> {
  return async (ctx) => {
    const { body, params } = ctx.state;
    const id = resolveOpportunityId(params.id);
    const row = await replaceCuration(
      publishing(deps),
      auditActorOf(ctx),
      id,
      body.tags ?? null,
      body.programSlugs ?? null,
      body.mainProtocolId,
    );
    ctx.body = answerCuration(id, params.id, row);
  };
}

/** PATCH /v4/opportunities/{id}/tags (back office): adds and removes tags. */
export function editTagsHandler(deps: ApiDeps): Handler<{ params: typeof opportunityIdParams; body: typeof tagsBody }> {
  return async (ctx) => {
    const { body, params } = ctx.state;
    const id = resolveOpportunityId(params.id);
    const row = await editTags(publishing(deps), auditActorOf(ctx), id, body.add ?? [], body.remove ?? []);
    ctx.body = answerCuration(id, params.id, row);
  };
}
