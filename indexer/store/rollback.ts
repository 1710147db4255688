import type { PgClient } from '../../internal/pg.js';
import type { OutboxEntity } from './outbox.js';
import { enqueueOutbox } from './outbox.js';

/**
 * Every table whose rows derive from a chain's blocks: on a reorg, rows above the common ancestor
 * are deleted. `entity` names the search document family each deleted row's `entityColumn`
 * refers to, so documents are rebuilt (or removed) by the projector.
 * Invariant: a table listed here has its chain id and block number on every row.
 */
export const CHAIN_DERIVED_TABLES: readonly { table: string; chainColumn: string; blockColumn: string; entity?: OutboxEntity; entityColumn?: string }[] = [
  { table: 'campaigns', chainColumn: 'distribution_chain_id', blockColumn: 'block_number', entity: 'campaign', entityColumn: 'id' },
];

export type RollbackResult = { ancestor: number; deleted: Record<string, number> };

/**
 * Rolls one chain back to block `ancestor` inside the caller's transaction (which holds the chain's
 * write lock): deletes headers and derived rows above it, enqueues the affected documents, and
 * moves every job cursor of the chain back to at most `ancestor`.
 */
export async function rollbackChain(client: PgClient, chainId: number, ancestor: number): Promise<RollbackResult> {
  const deleted: Record<string, number> = {};
  for (const t of CHAIN_DERIVED_TABLES) {
    const returning = t.entityColumn ? `RETURNING ${t.entityColumn} AS entity_id` : '';
    const res = await client.query<{ entity_id: string }>(`DELETE FROM ${t.table} WHERE ${t.chainColumn} = $1 AND ${t.blockColumn} > $2 ${returning}`, [chainId, ancestor]);
    deleted[t.table] = res.rowCount ?? 0;
    if (t.entity && res.rows.length) await enqueueOutbox(client, t.entity, [...new Set(res.rows.map((r) => String(r.entity_id)))]);
  }
  const blocks = await client.query('DELETE FROM blocks WHERE chain_id = $1 AND number > $2', [chainId, ancestor]);
  deleted['blocks'] = blocks.rowCount ?? 0;
  await client.query('UPDATE cursors SET block_number = $2, updated_at = now() WHERE chain_id = $1 AND block_number > $2', [chainId, ancestor]);
  return { ancestor, deleted };
}
