import { type AuditEntry, recordAudit } from '../../../domain/tables/audit.js';
import { enqueueOutbox } from '../../../domain/tables/outbox.js';
import { documentsUsingTokens } from '../../../domain/tables/tokens.js';
import type { PgClient } from '../../../internal/pg.js';
import { TOKEN_COLUMNS, type TokenDbRow } from '../../reads/tokens/repo.js';

export type Actor = Pick<AuditEntry, 'actor' | 'requestId'>;
/** Column → new value of a token row (columns of TOKEN_COLUMN_OF). */
export type TokenChanges = Record<string, unknown>;

/** A token row as the audit log keeps it: the served columns and which of them the back office curated. */
type AuditedToken = TokenDbRow & { curated_fields: string[] };
const RETURNING = `${TOKEN_COLUMNS}, curated_fields`;

/** Queues the token's campaign and opportunity documents (reward token, pool or market tokens) for re-projection. */
async function queueDocuments(tx: PgClient, row: TokenDbRow): Promise<void> {
  const documents = await documentsUsingTokens(tx, row.chain_id, [row.address]);
  await enqueueOutbox(tx, 'campaign', documents.campaigns);
  await enqueueOutbox(tx, 'opportunity', documents.opportunities);
}

/**
 * Inserts a token (id from its chain and address) with `values`, the `curated` columns among them left alone by the
 * tokens job, records its audit row and queues the documents that already name it; null when the chain already has a
 * token at that address.
 */
export async function insertToken(
  tx: PgClient,
  by: Actor,
  row: { id: string; chain_id: number; address: string },
  values: TokenChanges,
  curated: string[],
): Promise<TokenDbRow | null> {
  const columns = Object.keys(values);
  const { rows } = await tx.query<AuditedToken>(
    `INSERT INTO tokens (id, chain_id, address, ${columns.join(', ')}, curated_fields)
     VALUES ($1, $2, $3, ${columns.map((_, i) => `$${i + 4}`).join(', ')}, $${columns.length + 4}::text[])
     ON CONFLICT DO NOTHING RETURNING ${RETURNING}`,
    [row.id, row.chain_id, row.address, ...columns.map((c) => values[c]), [...curated].sort()],
  );
  const created = rows[0];
  if (!created) return null;
  await recordAudit(tx, {
    ...by,
    action: 'create',
    entity: 'token',
    entityId: created.id,
    before: null,
    after: created,
  });
  await queueDocuments(tx, created);
  return created;
}

/**
 * Updates the given columns of token `id` and adds them to its curated fields (the tokens job leaves them alone from
 * now on), records before/after and queues the documents naming it; null when there is no such token.
 */
export async function updateToken(
  tx: PgClient,
  by: Actor,
  id: string,
  changes: TokenChanges,
): Promise<TokenDbRow | null> {
  const before = await tx.query<AuditedToken>(`SELECT ${RETURNING} FROM tokens WHERE id = $1 FOR UPDATE`, [id]);
  if (!before.rows[0]) return null;
  const columns = Object.keys(changes);
  const { rows } = await tx.query<AuditedToken>(
    `UPDATE tokens SET ${columns.map((c, i) => `${c} = $${i + 2}`).join(', ')},
       curated_fields = ARRAY(SELECT DISTINCT f FROM unnest(curated_fields || $${columns.length + 2}::text[]) AS f ORDER BY f),
       updated_at = now()
     WHERE id = $1 RETURNING ${RETURNING}`,
    [id, ...columns.map((c) => changes[c]), columns],
  );
  const after = rows[0]!;
  await recordAudit(tx, { ...by, action: 'update', entity: 'token', entityId: id, before: before.rows[0], after });
  await queueDocuments(tx, after);
  return after;
}

/** Whether a stored token has this id (an `underlyingTokenId` must name one). */
export async function tokenExists(tx: Pick<PgClient, 'query'>, id: string): Promise<boolean> {
  return Boolean((await tx.query('SELECT 1 FROM tokens WHERE id = $1', [id])).rowCount);
}
