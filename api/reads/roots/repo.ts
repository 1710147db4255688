import type { PgClient, PgPool } from '../../../internal/pg.js';
import type { ListRootsQuery } from './schema.js';

/** A root row as /v4/roots reads it (bigint columns as strings, as pg returns them). */
export type RootWindowRow = { root: string; chain_id: number; timestamp: string; is_latest: boolean };

/**
 * Non-revoked roots of a chain recorded in the window: those recorded after `fromTimestamp` and
 * up to `toTimestamp`, plus the last one recorded at or before `fromTimestamp` (the root in force
 * when the window opens), newest first. A revoked root never took effect and is left out.
 * `is_latest` marks the chain's latest non-revoked root overall. Table roots.
 */
export async function listRootsInWindow(
  db: Pick<PgPool | PgClient, 'query'>,
  q: ListRootsQuery,
): Promise<RootWindowRow[]> {
  const { rows } = await db.query<RootWindowRow>(
    `WITH r AS (SELECT root, chain_id, timestamp, block_number, log_index FROM roots WHERE chain_id = $1 AND NOT revoked),
     latest AS (SELECT block_number, log_index FROM r ORDER BY block_number DESC, log_index DESC LIMIT 1),
     opening AS (SELECT block_number, log_index FROM r WHERE timestamp <= $2 ORDER BY block_number DESC, log_index DESC LIMIT 1)
     SELECT r.root, r.chain_id, r.timestamp::text AS timestamp,
       EXISTS (SELECT 1 FROM latest l WHERE l.block_number = r.block_number AND l.log_index = r.log_index) AS is_latest
     FROM r
     WHERE r.timestamp <= $3
       AND (r.timestamp > $2 OR EXISTS (SELECT 1 FROM opening o WHERE o.block_number = r.block_number AND o.log_index = r.log_index))
     ORDER BY r.block_number DESC, r.log_index DESC LIMIT $4 OFFSET $5`,
    [q.chainId, q.fromTimestamp, q.toTimestamp, q.items, q.page * q.items],
  );
  return rows;
}

/**
 * `endOfDisputePeriod` of each chain as the Distributor stores it (0 after a revoke; moved by a
 * rejected dispute), derived by the roots job into `chains.end_of_dispute_period`. Table chains.
 */
export async function loadEndsOfDisputePeriod(
  db: Pick<PgPool | PgClient, 'query'>,
  chainIds: readonly number[],
): Promise<Map<number, number>> {
  const { rows } = await db.query<{ id: number; end: string }>(
    'SELECT id, end_of_dispute_period::text AS end FROM chains WHERE id = ANY($1::int[])',
    [chainIds],
  );
  return new Map(rows.map((r) => [r.id, Number(r.end)]));
}
