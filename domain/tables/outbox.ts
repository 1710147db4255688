import type { PgClient, PgPool } from '../../internal/pg.js';

export type OutboxEntity = 'campaign' | 'opportunity';
export type OutboxEntry = { id: number; entity: OutboxEntity; entityId: string };

/** Enqueues entity ids for the search projector, inside the caller's transaction. */
export async function enqueueOutbox(
  client: Pick<PgClient, 'query'>,
  entity: OutboxEntity,
  ids: string[],
): Promise<void> {
  if (!ids.length) return;
  await client.query('INSERT INTO search_outbox (entity, entity_id) SELECT $1, unnest($2::text[])', [entity, ids]);
}

/**
 * Enqueues the ids a query selects (`idsSql`, one column, parameters `params`) in one statement, inside
 * the caller's transaction: the ids go from the table to the outbox without a round trip through the process.
 */
export async function enqueueOutboxOf(
  client: Pick<PgClient, 'query'>,
  entity: OutboxEntity,
  idsSql: string,
  params: unknown[],
): Promise<void> {
  await client.query(
    `INSERT INTO search_outbox (entity, entity_id) SELECT $${params.length + 1}, ids.id FROM (${idsSql}) AS ids(id)`,
    [...params, entity],
  );
}

/** Number of entries waiting and the age in seconds of the oldest. */
export async function outboxDepth(
  db: Pick<PgClient, 'query'> | PgPool,
): Promise<{ depth: number; oldestAgeSeconds: number | null }> {
  const { rows } = await db.query<{ depth: string; oldest: number | null }>(
    'SELECT count(*) AS depth, extract(epoch FROM now() - min(enqueued_at))::float8 AS oldest FROM search_outbox',
  );
  return { depth: Number(rows[0]?.depth ?? 0), oldestAgeSeconds: rows[0]?.oldest ?? null };
}
