import supertest from 'supertest';
import { createLogger } from '../../internal/logger.js';
import type { PgClient, PgPool } from '../../internal/pg.js';
import type { Harness } from './harness.js';

/**
 * How many rows the requests made by `run` read from `tables` (sequential scans plus index entries, their
 * indexes included): the API answers through one client inside an open transaction, and the session's own
 * counters (pg_stat_get_xact_tuples_returned) are read before and after, so nothing else running on the
 * database counts.
 * The transaction is rolled back. For tests that a read is bounded: what it reads, not how long it takes.
 */
export async function tuplesReadBy(
  h: Harness,
  tables: readonly string[],
  run: (request: ReturnType<typeof supertest>) => Promise<unknown>,
): Promise<number> {
  const client = await h.deps.pg.connect();
  try {
    await client.query('BEGIN');
    // At a few thousand rows, reading a whole table is the cheapest plan; at a million PostgreSQL avoids it
    // whenever an index serves. Turned off here so that the plan measured is the one taken at scale (a
    // read that has no other way still scans, and counts).
    await client.query('SET LOCAL enable_seqscan = off');
    // The API's pool, reduced to the one client (the routes measured only ever call `query`).
    const pg = { query: (text: string, values?: unknown[]) => client.query(text, values) } as unknown as PgPool;
    const logger = createLogger({ level: h.config.logLevel, name: 'test' });
    const app = h.createApp({ logger, pg });
    // The counters a session has not yet flushed carry its earlier transactions too: the difference is what `run` read.
    const before = await readCount(client, tables);
    await run(supertest(app.callback()));
    return (await readCount(client, tables)) - before;
  } finally {
    await client.query('ROLLBACK').catch(() => {});
    client.release();
  }
}

async function readCount(client: PgClient, tables: readonly string[]): Promise<number> {
  const { rows } = await client.query<{ n: string }>(
    `SELECT coalesce(sum(pg_stat_get_xact_tuples_returned(c.oid)), 0)::text AS n FROM pg_class c
     WHERE c.oid IN (SELECT t::regclass FROM unnest($1::text[]) t)
        OR c.oid IN (SELECT i.indexrelid FROM pg_index i WHERE i.indrelid IN (SELECT t::regclass FROM unnest($1::text[]) t))`,
    [tables],
  );
  return Number(rows[0]!.n);
}
