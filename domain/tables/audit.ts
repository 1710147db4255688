import type { PgClient } from '../../internal/pg.js';

/** One back-office write: who (`actor`), what (`action` on `entity` `entityId`) and the entity before and after. */
export type AuditEntry = {
  actor: string;
  requestId?: string | null;
  action: 'create' | 'update' | 'delete';
  entity: string;
  entityId: string;
  before: unknown;
  after: unknown;
};

/**
 * Records a back-office write inside the caller's transaction (table back_office_audit), so the write and its audit
 * row commit or roll back together. `before` is null for a creation, `after` null for a deletion.
 */
export async function recordAudit(client: Pick<PgClient, 'query'>, entry: AuditEntry): Promise<void> {
  await client.query(
    `INSERT INTO back_office_audit (actor, request_id, action, entity, entity_id, before, after)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb)`,
    [
      entry.actor,
      entry.requestId ?? null,
      entry.action,
      entry.entity,
      entry.entityId,
      entry.before == null ? null : JSON.stringify(entry.before),
      entry.after == null ? null : JSON.stringify(entry.after),
    ],
  );
}
