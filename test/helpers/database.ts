import pg from 'pg';
import { createLogger } from '../../internal/logger.js';
import { ensureDatabase, migrate } from '../../sql/migrate.js';

/**
 * Drops and recreates the public schema of the test database, then applies every migration
 * (reset the schema and migrate for isolation).
 */
export async function resetDatabase(databaseUrl: string): Promise<void> {
  await ensureDatabase(databaseUrl);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('DROP SCHEMA IF EXISTS public, reward_staging CASCADE; CREATE SCHEMA public;');
  } finally {
    await client.end();
  }
  await migrate({ databaseUrl, logger: createLogger({ level: 'silent', name: 'test-migrate' }) });
}
