import type { PgClient, PgPool } from '../../internal/pg.js';

/**
 * Runs `fn` in one READ WRITE transaction on the API pool, whose sessions default to read only
 * (STYLE §6): the identity tables are the only ones these routes write, and each write commits
 * whole or not at all.
 * @returns what `fn` returns.
 */
export async function inWriteTransaction<T>(pool: PgPool, fn: (client: PgClient) => Promise<T>): Promise<T> {
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
