import type { Queryable } from './pg.js';

export type DeleteInBatchesParams = {
  db: Queryable;
  /** A table name of ours (never caller input: it is spliced into the statement). */
  table: string;
  /** SQL predicate on `table`'s rows, with `$1`… bound to `params` (of ours too). */
  where: string;
  params?: unknown[];
  batchSize: number;
  /** Checked between batches: an aborted sweep stops with what it deleted so far. */
  signal?: AbortSignal;
  /** After each batch, with the rows it deleted. */
  onBatch?: (deleted: number) => void;
};

/**
 * Deletes the rows of `table` matching `where`, at most `batchSize` per statement, each statement
 * committing on its own: memory, locks and the WAL of one transaction follow the batch, never the
 * table (issue #29 L2), and a concurrent writer waits for one batch at most. Rows are picked by
 * ctid, so any table works whatever its key.
 * @returns the rows deleted.
 */
export async function deleteInBatches({
  db,
  table,
  where,
  params = [],
  batchSize,
  signal,
  onBatch,
}: DeleteInBatchesParams): Promise<number> {
  const limit = `$${params.length + 1}`;
  const sql = `DELETE FROM ${table} WHERE ctid = ANY(ARRAY(SELECT ctid FROM ${table} WHERE ${where} LIMIT ${limit}))`;
  let total = 0;
  while (!signal?.aborted) {
    const deleted = (await db.query(sql, [...params, batchSize])).rowCount ?? 0;
    total += deleted;
    onBatch?.(deleted);
    if (deleted < batchSize) break;
  }
  return total;
}
