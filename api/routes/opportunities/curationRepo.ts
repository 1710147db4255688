import { type AuditEntry, recordAudit } from '../../../domain/tables/audit.js';
import { enqueueOutbox } from '../../../domain/tables/outbox.js';
import { withTransaction as inWriteTransaction, type PgPool } from '../../../internal/pg.js';

export type Curation = { tags: string[]; program_slugs: string[] };
export type Actor = Pick<AuditEntry, 'actor' | 'requestId'>;

/**
 * Runs one curation UPDATE of opportunity `id` ($1), queues its outbox entry and records its audit row (before and
 * after) in the same transaction; undefined when there is no such opportunity.
 */
async function curate(
  pg: PgPool,
  by: Actor,
  id: string,
  sql: string,
  values: unknown[],
): Promise<Curation | undefined> {
  return inWriteTransaction(pg, async (tx) => {
    const before = await tx.query<Curation>('SELECT tags, program_slugs FROM opportunities WHERE id = $1 FOR UPDATE', [
      id,
    ]);
    if (!before.rows[0]) return undefined;
    const { rows } = await tx.query<Curation>(`${sql} RETURNING tags, program_slugs`, [id, ...values]);
    const after = rows[0] as Curation;
    await enqueueOutbox(tx, 'opportunity', [id]);
    const shape = (c: Curation) => ({ tags: c.tags, programSlugs: c.program_slugs });
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

/** Replaces the tags and/or program slugs given (null keeps the current ones). */
export function replaceCuration(
  pg: PgPool,
  by: Actor,
  id: string,
  tags: string[] | null,
  programSlugs: string[] | null,
) {
  return curate(
    pg,
    by,
    id,
    'UPDATE opportunities SET tags = COALESCE($2, tags), program_slugs = COALESCE($3, program_slugs) WHERE id = $1',
    [tags, programSlugs],
  );
}

/** Adds and removes tags (a tag in both is removed); the tags stay distinct and sorted. */
export function editTags(pg: PgPool, by: Actor, id: string, add: string[], remove: string[]) {
  return curate(
    pg,
    by,
    id,
    `UPDATE opportunities SET tags = ARRAY(SELECT DISTINCT t FROM unnest(tags || $2::text[]) AS t WHERE NOT t = ANY($3::text[]) ORDER BY t) WHERE id = $1`,
    [add, remove],
  );
}
