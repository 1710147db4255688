import type { PgPool } from '../../../internal/pg.js';

/** A job's cursor on a chain with the chain time of its block (null when that block is not stored). */
export type CursorRow = {
  job: string;
  chain_id: number;
  block_number: string;
  block_timestamp: string | null;
  updated_at: Date;
};

/**
 * Every job cursor (optionally of one chain, one job) with its block's timestamp. Tables cursors, blocks.
 */
export async function loadCursors(pg: PgPool, filter: { chainId?: number; job?: string } = {}): Promise<CursorRow[]> {
  const { rows } = await pg.query<CursorRow>(
    `SELECT k.job, k.chain_id, k.block_number::text AS block_number, b.timestamp::text AS block_timestamp, k.updated_at
     FROM cursors k LEFT JOIN blocks b ON b.chain_id = k.chain_id AND b.number = k.block_number
     WHERE ($1::int IS NULL OR k.chain_id = $1) AND ($2::text IS NULL OR k.job = $2)
     ORDER BY k.chain_id, k.job`,
    [filter.chainId ?? null, filter.job ?? null],
  );
  return rows;
}

/** The newest stored block of each of `chainIds` (number and chain time): one index probe per chain. Table blocks. */
export async function newestStoredBlocks(
  pg: PgPool,
  chainIds: readonly number[],
): Promise<Map<number, { number: number; timestamp: number }>> {
  const { rows } = await pg.query<{ chain_id: number; number: string; timestamp: string }>(
    `SELECT k.id AS chain_id, b.number::text AS number, b.timestamp::text AS timestamp
     FROM unnest($1::int[]) AS k(id)
     CROSS JOIN LATERAL (SELECT number, timestamp FROM blocks WHERE chain_id = k.id ORDER BY number DESC LIMIT 1) b`,
    [[...chainIds]],
  );
  return new Map(rows.map((r) => [r.chain_id, { number: Number(r.number), timestamp: Number(r.timestamp) }]));
}

/**
 * When the job `job` last finished a successful run covering each of `chainIds` (a run of every chain,
 * chain_id null, covers them all). Table job_runs (index job_runs_job_started_idx).
 */
export async function lastSuccessAt(pg: PgPool, job: string, chainIds: readonly number[]): Promise<Map<number, Date>> {
  const { rows } = await pg.query<{ chain_id: number; at: Date | null }>(
    `SELECT k.id AS chain_id,
       (SELECT max(r.finished_at) FROM job_runs r
        WHERE r.job = $1 AND r.status = 'success' AND (r.chain_id IS NULL OR r.chain_id = k.id)) AS at
     FROM unnest($2::int[]) AS k(id)`,
    [job, [...chainIds]],
  );
  return new Map(rows.filter((r) => r.at).map((r) => [r.chain_id, r.at!]));
}
