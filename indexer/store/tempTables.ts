import type { PgClient } from '../../internal/pg.js';

/** A temp table of the caller's transaction (dropped at commit), created, or emptied when one transaction uses it again. */
export async function emptyTempTable(client: PgClient, name: string, columns: string): Promise<void> {
  await client.query(`CREATE TEMP TABLE IF NOT EXISTS ${name} (${columns}) ON COMMIT DROP`);
  await client.query(`TRUNCATE ${name}`);
}
