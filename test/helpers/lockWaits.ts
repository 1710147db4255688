import type { PgClient, Queryable } from '../../internal/pg.js';
import { eventually } from './eventually.js';

/** The server process id of a checked-out client (to watch it from another connection). */
export async function backendPid(client: PgClient): Promise<number> {
  return (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
}

/**
 * Resolves once backend `pid` waits on a lock another session holds (pg_blocking_pids is not empty): how a
 * test knows a statement is blocked, instead of guessing from a pause that it would have finished by now.
 */
export async function blockedOnLock(pg: Queryable, pid: number, what = `backend ${pid} waiting on a lock`) {
  await eventually(
    async () => (await pg.query<{ n: number }>('SELECT cardinality(pg_blocking_pids($1)) AS n', [pid])).rows[0]!.n > 0,
    { timeoutMs: 10_000, intervalMs: 20, what },
  );
}
