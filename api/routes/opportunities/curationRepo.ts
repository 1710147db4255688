import { type AuditEntry, recordAudit } from '../../../domain/tables/audit.js';
import { enqueueOutbox, enqueueOutboxOf } from '../../../domain/tables/outbox.js';
import type { PgClient } from '../../../internal/pg.js';
import { requireProtocol } from '../../reads/protocols/requireProtocol.js';

export type Curation = { tags: string[]; program_slugs: string[]; main_protocol_id: string | null };
/** Runs a write in one transaction (plain, or writeAndPublish to republish what it queued before answering). */
export type WriteRunner = <T>(write: (tx: PgClient) => Promise<T>) => Promise<T>;
export type Actor = Pick<AuditEntry, 'actor' | 'requestId'>;

/**
 * Runs one curation UPDATE of opportunity `id` ($1), queues its outbox entry (and its campaigns' when its protocol
 * changed) and records its audit row (before and after) in the same transaction; undefined when there is no such
 * opportunity.
 */
async function curate(
  run: WriteRunner,
  by: Actor,
  id: string,
  sql: string,
  values: unknown[],
): Promise<Curation | undefined> {
  return run(async (tx) => {
    const columns = 'tags, program_slugs, main_protocol_id';
    const before = await tx.query<Curation>(`SELECT ${columns} FROM opportunities WHERE id = $1 FOR UPDATE`, [id]);
    if (!before.rows[0]) return undefined;
    const { rows } = await tx.query<Curation>(`${sql} RETURNING ${columns}`, [id, ...values]);
    const after = rows[0] as Curation;
    await enqueueOutbox(tx, 'opportunity', [id]);
    // Its campaigns' documents carry the opportunity's protocol too (mainProtocolId: counts and totals by protocol).
    if (after.main_protocol_id !== before.rows[0].main_protocol_id)
      await enqueueOutboxOf(tx, 'campaign', 'SELECT id FROM campaigns_current WHERE opportunity_id = $1', [id]);
    const shape = (c: Curation) => ({
      tags: c.tags,
      programSlugs: c.program_slugs,
      mainProtocolId: c.main_protocol_id,
    });
    await recordAudit(tx, {
      ...by,
      action: 'update',
      entity: 'opportunity',
      entityId: id,
      before: shape(before.rows[0]),
      after: shape(after),
    });
    return after;
  });
}

/**
 * Replaces the tags and/or program slugs given (null keeps the current ones) and sets the protocol when
 * `mainProtocolId` is given (null: its campaign type's again); a protocol id outside the catalogue is a 400 naming it.
 */
export async function replaceCuration(
  run: WriteRunner,
  by: Actor,
  id: string,
  tags: string[] | null,
  programSlugs: string[] | null,
  mainProtocolId: string | null | undefined,
) {
  return curate(
    async (write) =>
      run(async (tx) => {
        if (mainProtocolId) await requireProtocol(tx, 'mainProtocolId', mainProtocolId);
        return write(tx);
      }),
    by,
    id,
    `UPDATE opportunities SET tags = COALESCE($2, tags), program_slugs = COALESCE($3, program_slugs),
       main_protocol_id = CASE WHEN $4 THEN $5 ELSE main_protocol_id END WHERE id = $1`,
    [tags, programSlugs, mainProtocolId !== undefined, mainProtocolId ?? null],
  );
}

/** Adds and removes tags (a tag in both is removed); the tags stay distinct and sorted. */
export function editTags(run: WriteRunner, by: Actor, id: string, add: string[], remove: string[]) {
  return curate(
    run,
    by,
    id,
    `UPDATE opportunities SET tags = ARRAY(SELECT DISTINCT t FROM unnest(tags || $2::text[]) AS t WHERE NOT t = ANY($3::text[]) ORDER BY t) WHERE id = $1`,
    [add, remove],
  );
}
