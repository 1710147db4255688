/**
 * The "all N rows are in PostgreSQL" clock of the peer benchmark: both indexers are timed by the same
 * poll of their table's row count, so neither side's own progress reporting decides its figure.
 */
import pg from 'pg';

export type WaitForRowCountParams = {
  databaseUrl: string;
  /** A `SELECT count(*)` query; a missing table (42P01, not created yet) counts as 0 rows. */
  countSql: string;
  expected: number;
  /** performance.now() origin of the returned seconds. */
  since: number;
  timeoutMs: number;
  intervalMs?: number;
  /** Stops waiting early (e.g. the indexer process died); its reason becomes the error. */
  signal?: AbortSignal;
};

export type WaitForRowCountResult = { seconds: number; rows: number };

/**
 * Polls `countSql` until it answers at least `expected`.
 * @returns seconds from `since` to the first poll that saw all rows.
 * @throws Error with the last count seen on timeout or abort.
 */
export async function waitForRowCount({
  databaseUrl,
  countSql,
  expected,
  since,
  timeoutMs,
  intervalMs = 100,
  signal,
}: WaitForRowCountParams): Promise<WaitForRowCountResult> {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'bench-peer-poll' });
  await client.connect();
  let rows = 0;
  try {
    for (;;) {
      rows = await client.query<{ n: string }>(countSql).then(
        (r) => Number(r.rows[0]!.n),
        (e: { code?: string }) => {
          if (e.code === '42P01' || e.code === '3F000') return 0; // table or schema not created yet
          throw e;
        },
      );
      if (rows >= expected) return { seconds: (performance.now() - since) / 1000, rows };
      if (signal?.aborted) throw new Error(`stopped waiting at ${rows}/${expected} rows: ${String(signal.reason)}`);
      if (performance.now() - since > timeoutMs)
        throw new Error(`only ${rows}/${expected} rows after ${(timeoutMs / 1000).toFixed(0)} s (${countSql})`);
      await new Promise((r) => setTimeout(r, intervalMs));
    }
  } finally {
    await client.end();
  }
}
