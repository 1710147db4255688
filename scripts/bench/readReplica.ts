import { createPgPool, type PgPool } from '../../internal/pg.js';

/**
 * BENCH_DATABASE_READ_URL (#34): a streaming replica of the bench's database (scripts/services/pgReplica.sh
 * up) that the API under benchmark reads lag-tolerant data from (DATABASE_READ_URL); unset: no replica.
 */
export const BENCH_READ_URL = process.env['BENCH_DATABASE_READ_URL'] || undefined;

/** The API environment's replica setting, when the bench runs with one. */
export const readReplicaEnv = (): Record<string, string> =>
  BENCH_READ_URL ? { DATABASE_READ_URL: BENCH_READ_URL } : {};

/**
 * Waits until the replica has replayed everything the primary (`pg`) has written so far, so the API
 * under benchmark reads the loaded data set from it instead of falling back to the primary for lag.
 */
export async function waitForReplica(pg: PgPool): Promise<void> {
  if (!BENCH_READ_URL) return;
  const { rows } = await pg.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn');
  const replica = createPgPool({ connectionString: BENCH_READ_URL, applicationName: 'bench-replica-wait', max: 1 });
  try {
    const t0 = Date.now();
    for (;;) {
      const r = await replica.query<{ behind: boolean }>('SELECT pg_last_wal_replay_lsn() < $1::pg_lsn AS behind', [
        rows[0]!.lsn,
      ]);
      if (!r.rows[0]!.behind) break;
      if (Date.now() - t0 > 600_000) throw new Error(`the replica at ${BENCH_READ_URL} did not catch up within 600 s`);
      await new Promise((res) => setTimeout(res, 250));
    }
    console.log(
      `replica caught up in ${((Date.now() - t0) / 1000).toFixed(1)} s; the API reads from ${BENCH_READ_URL}`,
    );
  } finally {
    await replica.end();
  }
}
