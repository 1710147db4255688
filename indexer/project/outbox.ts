import type { PgClient } from '../../internal/pg.js';
import type { OutboxEntity, OutboxEntry } from '../../domain/tables/outbox.js';

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
