import { fileURLToPath } from 'node:url';
import { runner } from 'node-pg-migrate';
import type { Logger } from '../internal/logger.js';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations', import.meta.url));

export type MigrateParams = { databaseUrl: string; logger: Logger; schema?: string };

/**
 * Migrations are named `YYYY_MM_DD_NN_description`, with a two-digit same-day counter so that a
 * listing sorts as the runner applies them. The first ones had unpadded counters
 * (`2026_11_21_4_…`, renamed on 2026-11-24): their ledger rows are renamed to the padded names, in
 * one statement, before the runner compares the ledger with the files.
 */
async function renameUnpaddedLedgerRows(databaseUrl: string, schema: string): Promise<number> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const table = `"${schema.replace(/"/g, '""')}".schema_migrations`;
    const { rows } = await client.query<{ exists: boolean }>('SELECT to_regclass($1) IS NOT NULL AS exists', [table]);
    if (!rows[0]?.exists) return 0;
    const res = await client.query(
      `UPDATE ${table} SET name = regexp_replace(name, '^(\\d{4}_\\d{2}_\\d{2})_(\\d)_', '\\1_0\\2_') WHERE name ~ '^\\d{4}_\\d{2}_\\d{2}_\\d_'`,
    );
    return res.rowCount ?? 0;
  } finally {
    await client.end();
  }
}

/**
 * Applies pending forward-only SQL migrations from sql/migrations in file-name order
 * (date prefix, two-digit same-day counter), one transaction each, under node-pg-migrate's advisory lock (waiting for a
 * concurrent runner rather than racing it), recorded in the `schema_migrations` ledger.
 * @returns the names of the migrations applied by this call.
 */
export async function migrate({ databaseUrl, logger, schema = 'public' }: MigrateParams): Promise<string[]> {
  const renamed = await renameUnpaddedLedgerRows(databaseUrl, schema);
  if (renamed) logger.info({ msg: 'migration ledger renamed to padded counters', count: renamed });
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
    logger: {
      debug: () => {},
      info: (msg: string) => logger.debug({ msg }),
      warn: (msg: string) => logger.warn({ msg }),
      error: (msg: string) => logger.error({ msg }),
    },
  } as Parameters<typeof runner>[0]);
  const names = applied.map((m) => m.name);
  logger.info({ msg: 'migrations applied', count: names.length, names });
  return names;
}

/** Runs `fn` on a connection to the server's `postgres` database, with the (quoted) name of the database `databaseUrl` names. */
async function withServerClient<T>(
  databaseUrl: string,
  fn: (client: import('pg').Client, name: string, quoted: string) => Promise<T>,
): Promise<T> {
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
    if (!rowCount)
      await client.query(`CREATE DATABASE ${quoted}`).catch((e: { code?: string }) => {
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
