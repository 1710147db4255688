import type { PgClient, PgPool } from '../internal/pg.js';

/**
 * Runs `fn` in one READ WRITE transaction on the API pool. The API pool's sessions default to
 * read only (STYLE §6), which protects every read route; the few write routes (config store and
 * associations) opt in per transaction, so a batch commits whole or not at all.
 * @returns what `fn` returns.
 */
export async function withWriteTransaction<T>(pool: PgPool, fn: (client: PgClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN READ WRITE');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
