import type { PgClient, PgPool } from '../../internal/pg.js';

/** Timestamps of stored headers (block number → Unix seconds); headers cover every indexed range. */
export async function loadBlockTimestamps(
  db: PgClient | PgPool,
  chainId: number,
  numbers: number[],
): Promise<Map<number, number>> {
  if (!numbers.length) return new Map();
  const { rows } = await db.query<{ number: string; timestamp: string }>(
    'SELECT number, timestamp FROM blocks WHERE chain_id = $1 AND number = ANY($2::bigint[])',
    [chainId, [...new Set(numbers)]],
  );
  return new Map(rows.map((r) => [Number(r.number), Number(r.timestamp)]));
}
