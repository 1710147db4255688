import { readFileSync } from 'node:fs';
import type { PgClient, PgPool } from '../../internal/pg.js';

/** The text of sql/migrations/`file` from the first `from` on, up to `to` when given: a migration's backfill statements. */
export function migrationPart(file: string, from: string, to?: string): string {
  const sql = readFileSync(new URL(`../../sql/migrations/${file}`, import.meta.url), 'utf8');
  return sql.slice(sql.indexOf(from), to === undefined ? undefined : sql.indexOf(to));
}

/**
 * What `rows` reads as ingestion left the tables, and again after `clear` and a migration's `backfill`
 * rebuilt them, inside one transaction that is rolled back: the caller compares the two.
 */
export async function rowsRebuiltByBackfill<T>(
  pool: PgPool,
  { clear, backfill, rows }: { clear: string; backfill: string; rows: (client: PgClient) => Promise<T> },
): Promise<{ ingested: T; rebuilt: T }> {
  const client = await pool.connect();
  try {
    const ingested = await rows(client);
    await client.query('BEGIN');
    await client.query(clear);
    await client.query(backfill);
    return { ingested, rebuilt: await rows(client) };
  } finally {
    await client.query('ROLLBACK');
    client.release();
  }
}
