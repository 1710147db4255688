import type { PgClient } from '../../internal/pg.js';
import type { OutboxEntity } from '../../domain/tables/outbox.js';
import { enqueueOutbox } from '../../domain/tables/outbox.js';
import { retractEventsAbove } from '../../domain/tables/events.js';

/**
 * Every table whose rows derive from a chain's blocks: on a reorg, rows above the common ancestor
 * are deleted, and the search documents named by `enqueue` (entity family ← column of the deleted
 * row) are queued so the projector rebuilds or removes them.
 * Invariant: a table listed here has its chain id and block number on every row.
 */
export const CHAIN_DERIVED_TABLES: readonly {
  table: string;
  chainColumn: string;
  blockColumn: string;
  enqueue?: { entity: OutboxEntity; column: string }[];
}[] = [
  {
    table: 'campaigns',
    chainColumn: 'distribution_chain_id',
    blockColumn: 'block_number',
    enqueue: [
      { entity: 'campaign', column: 'id' },
      { entity: 'opportunity', column: 'opportunity_id' },
    ],
  },
  {
    table: 'campaign_overrides',
    chainColumn: 'chain_id',
    blockColumn: 'block_number',
    enqueue: [
      { entity: 'campaign', column: 'campaign_db_id' },
      { entity: 'opportunity', column: 'opportunity_id' },
    ],
  },
  {
    table: 'campaign_reallocations',
    chainColumn: 'chain_id',
    blockColumn: 'block_number',
    enqueue: [{ entity: 'campaign', column: 'campaign_db_id' }],
  },
  { table: 'roots', chainColumn: 'chain_id', blockColumn: 'block_number' },
  { table: 'distributor_events', chainColumn: 'chain_id', blockColumn: 'block_number' },
  { table: 'claims', chainColumn: 'chain_id', blockColumn: 'block_number' },
  // Block of the announced root's TreeUpdated: the root's removal un-announces it.
  { table: 'live_root_announcements', chainColumn: 'chain_id', blockColumn: 'block_number' },
  { table: 'reward_token_min_amounts', chainColumn: 'chain_id', blockColumn: 'block_number' },
];

export type RollbackResult = { ancestor: number; deleted: Record<string, number> };

/**
 * Rolls one chain back to block `ancestor` inside the caller's transaction (which holds the chain's
 * write lock): deletes headers and derived rows above it, enqueues the affected documents, retracts
 * the events read from those blocks (domain/tables/events.ts), and
 * moves every job cursor of the chain back to at most `ancestor`.
 */
export async function rollbackChain(client: PgClient, chainId: number, ancestor: number): Promise<RollbackResult> {
  const deleted: Record<string, number> = {};
  for (const t of CHAIN_DERIVED_TABLES) {
    const returning = t.enqueue?.length
      ? `RETURNING ${t.enqueue.map((e, i) => `${e.column} AS e${i}`).join(', ')}`
      : '';
    const res = await client.query<Record<string, string | null>>(
      `DELETE FROM ${t.table} WHERE ${t.chainColumn} = $1 AND ${t.blockColumn} > $2 ${returning}`,
      [chainId, ancestor],
    );
    deleted[t.table] = res.rowCount ?? 0;
    for (const [i, e] of (t.enqueue ?? []).entries()) {
      const ids = [
        ...new Set(res.rows.map((r) => r[`e${i}`]).filter((id): id is string => id !== null && id !== undefined)),
      ];
      await enqueueOutbox(client, e.entity, ids);
    }
  }
  const blocks = await client.query('DELETE FROM blocks WHERE chain_id = $1 AND number > $2', [chainId, ancestor]);
  deleted['blocks'] = blocks.rowCount ?? 0;
  // Integrators were told about the deleted rows: one `retracted` event names those events.
  deleted['events'] = (await retractEventsAbove(client, chainId, ancestor)).length;
  await client.query(
    'UPDATE cursors SET block_number = $2, updated_at = now() WHERE chain_id = $1 AND block_number > $2',
    [chainId, ancestor],
  );
  return { ancestor, deleted };
}
