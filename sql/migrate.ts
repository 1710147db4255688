import { fileURLToPath } from 'node:url';
import { runner } from 'node-pg-migrate';
import type { Logger } from '../internal/logger.js';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations', import.meta.url));

export type MigrateParams = { databaseUrl: string; logger: Logger; schema?: string };

/**
 * Applies pending forward-only SQL migrations from sql/migrations in file-name order
 * (date prefix), one transaction each, under node-pg-migrate's advisory lock (waiting for a
 * concurrent runner rather than racing it), recorded in the `schema_migrations` ledger.
 * @returns the names of the migrations applied by this call.
 */
export async function migrate({ databaseUrl, logger, schema = 'public' }: MigrateParams): Promise<string[]> {
  const applied = await runner({
    databaseUrl,
    dir: MIGRATIONS_DIR,
    direction: 'up',
    migrationsTable: 'schema_migrations',
    schema,
    createSchema: true,
    singleTransaction: false,
    checkOrder: true,
    advisoryLockMode: 'wait',
    logger: { debug: () => {}, info: (msg: string) => logger.debug({ msg }), warn: (msg: string) => logger.warn({ msg }), error: (msg: string) => logger.error({ msg }) },
  } as Parameters<typeof runner>[0]);
  const names = applied.map((m) => m.name);
  logger.info({ msg: 'migrations applied', count: names.length, names });
  return names;
}

/** Runs `fn` on a connection to the server's `postgres` database, with the (quoted) name of the database `databaseUrl` names. */
async function withServerClient<T>(databaseUrl: string, fn: (client: import('pg').Client, name: string, quoted: string) => Promise<T>): Promise<T> {
  const { default: pg } = await import('pg');
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    return await fn(client, name, `"${name.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}

/** Creates the database named in `databaseUrl` when it does not exist yet (dev and test convenience). */
export async function ensureDatabase(databaseUrl: string): Promise<void> {
  await withServerClient(databaseUrl, async (client, name, quoted) => {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await client.query(`CREATE DATABASE ${quoted}`).catch((e: { code?: string }) => {
      if (e.code !== '42P04') throw e; // created concurrently by another process
    });
  });
}

/** Drops (disconnecting its sessions) and recreates the database named in `databaseUrl` (benchmarks' fresh state). */
export async function recreateDatabase(databaseUrl: string): Promise<void> {
  await withServerClient(databaseUrl, async (client, _name, quoted) => {
    await client.query(`DROP DATABASE IF EXISTS ${quoted} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${quoted}`);
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { loadConfig } = await import('../internal/config.js');
  const { createLogger } = await import('../internal/logger.js');
  const config = loadConfig();
  const logger = createLogger({ level: config.logLevel, name: 'migrate' });
  await ensureDatabase(config.databaseUrl);
  await migrate({ databaseUrl: config.databaseUrl, logger });
}
