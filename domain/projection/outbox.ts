import type { PgClient } from '../../internal/pg.js';
import type { OutboxEntity, OutboxEntry } from '../tables/outbox.js';

/** Advisory-lock class of the documents being built (two-int keys: never the job locks' bigint keys). */
const DOCUMENT_LOCK_CLASS = 7_301;

type OutboxRow = { id: string; entity: OutboxEntity; entity_id: string };
const toEntry = (r: OutboxRow): OutboxEntry => ({ id: Number(r.id), entity: r.entity, entityId: r.entity_id });

export type ClaimOutboxOptions = {
  /** Only entries with a greater id: a job publishing what it wrote itself, ahead of any backlog. */
  afterId?: number;
  /** Only entries of this entity (the head of that entity's queue). */
  entity?: OutboxEntity;
};

/**
 * Locks the oldest entries for this transaction (SKIP LOCKED: two projectors never take the same
 * entry), with every other waiting entry of the same entities: documents built now from
 * PostgreSQL cover the changes those entries announce, so they are deleted together. Then takes
 * each of those documents' lock until commit (in one order, so two projectors never deadlock):
 * a projector that claimed a newer entry of a document another one is still building waits for it,
 * so the older build never reaches Elasticsearch after the newer one.
 */
export async function claimOutbox(
  client: PgClient,
  limit: number,
  { afterId = 0, entity }: ClaimOutboxOptions = {},
): Promise<OutboxEntry[]> {
  const { rows } = await client.query<OutboxRow>(
    `SELECT id, entity, entity_id FROM search_outbox WHERE id > $2 AND ($3::text IS NULL OR entity = $3)
     ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED`,
    [limit, afterId, entity ?? null],
  );
  if (!rows.length) return [];
  const { rows: same } = await client.query<OutboxRow>(
    `SELECT o.id, o.entity, o.entity_id FROM search_outbox o
     JOIN (SELECT DISTINCT * FROM unnest($1::text[], $2::text[])) AS u(entity, entity_id) ON o.entity = u.entity AND o.entity_id = u.entity_id
     WHERE o.id <> ALL($3::bigint[]) FOR UPDATE OF o SKIP LOCKED`,
    [rows.map((r) => r.entity), rows.map((r) => r.entity_id), rows.map((r) => r.id)],
  );
  await lockDocuments(
    client,
    rows.map((r) => r.entity),
    rows.map((r) => r.entity_id),
  );
  return [...rows, ...same].map(toEntry);
}

/**
 * Claims every waiting entry of the named documents (SKIP LOCKED: entries another projector holds stay
 * its own), after taking those documents' locks: a projector building one of them is waited for, so the
 * caller builds after it, from PostgreSQL as it is then. For a write that must reach search reads before
 * its request answers (projectDocumentsNow.ts), whatever waits ahead of it in the outbox.
 */
export async function claimDocuments(client: PgClient, entity: OutboxEntity, ids: string[]): Promise<OutboxEntry[]> {
  await lockDocuments(
    client,
    ids.map(() => entity),
    ids,
  );
  const { rows } = await client.query<OutboxRow>(
    `SELECT id, entity, entity_id FROM search_outbox WHERE entity = $1 AND entity_id = ANY($2::text[])
     ORDER BY id FOR UPDATE SKIP LOCKED`,
    [entity, ids],
  );
  return rows.map(toEntry);
}

/**
 * Takes each document's lock until commit, in key order (one order for every projector, so two never
 * deadlock): held from claim to commit, it keeps two builds of one document from overlapping.
 */
async function lockDocuments(client: PgClient, entities: OutboxEntity[], entityIds: string[]): Promise<void> {
  await client.query(
    `SELECT pg_advisory_xact_lock($3, k) FROM (
       SELECT DISTINCT hashtext(entity || ':' || entity_id) AS k FROM unnest($1::text[], $2::text[]) AS u(entity, entity_id) ORDER BY k
     ) AS keys`,
    [entities, entityIds, DOCUMENT_LOCK_CLASS],
  );
}

/** The newest entry's id (0 when empty): entries enqueued after this call have greater ids. */
export async function outboxHighWater(db: Pick<PgClient, 'query'>): Promise<number> {
  const { rows } = await db.query<{ id: string }>('SELECT coalesce(max(id), 0) AS id FROM search_outbox');
  return Number(rows[0]!.id);
}

export async function deleteOutbox(client: PgClient, ids: number[]): Promise<void> {
  if (ids.length) await client.query('DELETE FROM search_outbox WHERE id = ANY($1::bigint[])', [ids]);
}
