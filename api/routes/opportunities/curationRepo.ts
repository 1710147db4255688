import { enqueueOutbox } from '../../../domain/tables/outbox.js';
import { withTransaction as inWriteTransaction, type PgPool } from '../../../internal/pg.js';

export type Curation = { tags: string[]; program_slugs: string[] };

/** Runs one curation UPDATE of opportunity `id` ($1) and queues its outbox entry in the same transaction; undefined when there is no such opportunity. */
async function curate(pg: PgPool, id: string, sql: string, values: unknown[]): Promise<Curation | undefined> {
  return inWriteTransaction(pg, async (tx) => {
    const { rows } = await tx.query<Curation>(`${sql} RETURNING tags, program_slugs`, [id, ...values]);
    if (rows[0]) await enqueueOutbox(tx, 'opportunity', [id]);
    return rows[0];
  });
}

/** Replaces the tags and/or program slugs given (null keeps the current ones). */
export function replaceCuration(pg: PgPool, id: string, tags: string[] | null, programSlugs: string[] | null) {
  return curate(
    pg,
    id,
    'UPDATE opportunities SET tags = COALESCE($2, tags), program_slugs = COALESCE($3, program_slugs) WHERE id = $1',
    [tags, programSlugs],
  );
}

/** Adds and removes tags (a tag in both is removed); the tags stay distinct and sorted. */
export function editTags(pg: PgPool, id: string, add: string[], remove: string[]) {
  return curate(
    pg,
    id,
    `UPDATE opportunities SET tags = ARRAY(SELECT DISTINCT t FROM unnest(tags || $2::text[]) AS t WHERE NOT t = ANY($3::text[]) ORDER BY t) WHERE id = $1`,
    [add, remove],
  );
}
