import type { PgClient, PgPool } from '../../internal/pg.js';

/** Last processed block of `job` on `chainId`, or null when it never ran there. */
export async function getCursor(
  db: Pick<PgClient, 'query'> | PgPool,
  job: string,
  chainId: number,
): Promise<number | null> {
  const { rows } = await db.query<{ block_number: string }>(
    'SELECT block_number FROM cursors WHERE job = $1 AND chain_id = $2',
    [job, chainId],
  );
  return rows[0] ? Number(rows[0].block_number) : null;
}

/** Advances the cursor inside the caller's transaction, so rows and cursor commit together. */
export async function setCursor(client: PgClient, job: string, chainId: number, blockNumber: number): Promise<void> {
  await client.query(
    `INSERT INTO cursors (job, chain_id, block_number, updated_at) VALUES ($1, $2, $3, now())
     ON CONFLICT (job, chain_id) DO UPDATE SET block_number = EXCLUDED.block_number, updated_at = now()`,
    [job, chainId, blockNumber],
  );
}

/** Every cursor, for health and lag reports. */
export async function listCursors(
  db: PgPool,
): Promise<{ job: string; chainId: number; blockNumber: number; updatedAt: Date }[]> {
  const { rows } = await db.query<{ job: string; chain_id: number; block_number: string; updated_at: Date }>(
    'SELECT * FROM cursors ORDER BY job, chain_id',
  );
  return rows.map((r) => ({
    job: r.job,
    chainId: r.chain_id,
    blockNumber: Number(r.block_number),
    updatedAt: r.updated_at,
  }));
}
