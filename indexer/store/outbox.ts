import type { PgClient, PgPool } from '../../internal/pg.js';

export type OutboxEntity = 'campaign' | 'opportunity';
export type OutboxEntry = { id: number; entity: OutboxEntity; entityId: string };

/** Enqueues entity ids for the search projector, inside the caller's transaction. */
export async function enqueueOutbox(client: PgClient, entity: OutboxEntity, ids: string[]): Promise<void> {
  if (!ids.length) return;
  await client.query('INSERT INTO search_outbox (entity, entity_id) SELECT $1, unnest($2::text[])', [entity, ids]);
}

/**
 * Locks the oldest entries for this transaction (SKIP LOCKED: two projectors never take the same
 * entry), with every other waiting entry of the same entities: documents built now from
 * PostgreSQL cover the changes those entries announce, so they are deleted together.
 */
export async function claimOutbox(client: PgClient, limit: number): Promise<OutboxEntry[]> {
  const { rows } = await client.query<{ id: string; entity: OutboxEntity; entity_id: string }>(
    'SELECT id, entity, entity_id FROM search_outbox ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED',
    [limit],
  );
  if (!rows.length) return [];
  const { rows: same } = await client.query<{ id: string; entity: OutboxEntity; entity_id: string }>(
    `SELECT o.id, o.entity, o.entity_id FROM search_outbox o
     JOIN (SELECT DISTINCT * FROM unnest($1::text[], $2::text[])) AS u(entity, entity_id) ON o.entity = u.entity AND o.entity_id = u.entity_id
     WHERE o.id <> ALL($3::bigint[]) FOR UPDATE OF o SKIP LOCKED`,
    [rows.map((r) => r.entity), rows.map((r) => r.entity_id), rows.map((r) => r.id)],
  );
  return [...rows, ...same].map((r) => ({ id: Number(r.id), entity: r.entity, entityId: r.entity_id }));
}

export async function deleteOutbox(client: PgClient, ids: number[]): Promise<void> {
  if (ids.length) await client.query('DELETE FROM search_outbox WHERE id = ANY($1::bigint[])', [ids]);
}

/** Number of entries waiting and the age in seconds of the oldest. */
export async function outboxDepth(db: Pick<PgClient, 'query'> | PgPool): Promise<{ depth: number; oldestAgeSeconds: number | null }> {
  const { rows } = await db.query<{ depth: string; oldest: number | null }>(
    'SELECT count(*) AS depth, extract(epoch FROM now() - min(enqueued_at))::float8 AS oldest FROM search_outbox',
  );
  return { depth: Number(rows[0]?.depth ?? 0), oldestAgeSeconds: rows[0]?.oldest ?? null };
}
