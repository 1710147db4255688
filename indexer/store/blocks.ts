import type { PgClient, PgPool } from '../../internal/pg.js';

export type BlockRow = { chainId: number; number: number; hash: string; parentHash: string; timestamp: number };

/** Batch upsert of block headers (one statement; re-running a range is harmless). */
export async function upsertBlocks(client: PgClient, rows: BlockRow[]): Promise<number> {
  if (!rows.length) return 0;
  const result = await client.query(
    `INSERT INTO blocks (chain_id, number, hash, parent_hash, timestamp)
     SELECT * FROM unnest($1::int[], $2::bigint[], $3::text[], $4::text[], $5::bigint[])
     ON CONFLICT (chain_id, number) DO UPDATE SET hash = EXCLUDED.hash, parent_hash = EXCLUDED.parent_hash, timestamp = EXCLUDED.timestamp`,
    [
      rows.map((r) => r.chainId),
      rows.map((r) => r.number),
      rows.map((r) => r.hash),
      rows.map((r) => r.parentHash),
      rows.map((r) => r.timestamp),
    ],
  );
  return result.rowCount ?? 0;
}

/** Hash of a stored block, to check that the next batch extends it. */
export async function getBlockHash(
  client: Pick<PgClient, 'query'> | PgPool,
  chainId: number,
  number: number,
): Promise<string | null> {
  const { rows } = await client.query<{ hash: string }>('SELECT hash FROM blocks WHERE chain_id = $1 AND number = $2', [
    chainId,
    number,
  ]);
  return rows[0]?.hash ?? null;
}

/** The stored block latest at or before `timestamp` on the chain (blocks_chain_timestamp_idx); null when none is. */
export async function blockAtOrBefore(
  client: Pick<PgClient, 'query'> | PgPool,
  chainId: number,
  timestamp: number,
): Promise<{ number: number; timestamp: number } | null> {
  const { rows } = await client.query<{ number: string; timestamp: string }>(
    'SELECT number, timestamp FROM blocks WHERE chain_id = $1 AND timestamp <= $2 ORDER BY timestamp DESC, number DESC LIMIT 1',
    [chainId, timestamp],
  );
  return rows[0] ? { number: Number(rows[0].number), timestamp: Number(rows[0].timestamp) } : null;
}
