import { redactText } from './redact.js';
import type { PgPool } from './pg.js';

/**
 * Reads that tolerate replication lag, served by a PostgreSQL streaming replica while it is healthy
 * and by the primary otherwise (issue #34). Only `query` is offered: no transaction, no session state,
 * so what runs here is one self-contained read; a route opts in by asking for it by name (ApiDeps.readPg).
 */
export type ReadPool = Pick<PgPool, 'query'> & {
  /** Where moved reads go now and why, for /v4/health and /metrics. */
  status(): ReadReplicaStatus;
  /** Stops the lag checks and ends the replica's pools (never the primary, which the caller owns). */
  close(): Promise<void>;
};

/** One lag check on the replica: its answer, or its failure. */
export type ReplicaSample =
  | { at: number; ok: true; lagMs: number; receiving: boolean; inRecovery: boolean }
  | { at: number; ok: false; error: string };

export type ReadTargetReason =
  | 'healthy'
  | 'unchecked'
  | 'down'
  | 'not-receiving'
  | 'lagging'
  | 'check-overdue'
  | 'query-failed';

export type ReadTarget = { target: 'replica' | 'primary'; reason: ReadTargetReason };

export type ChooseReadTargetParams = {
  sample: ReplicaSample | undefined;
  /** When a read on the replica last failed with a connection error (epoch ms), if ever. */
  failedAt?: number;
  nowMs: number;
  maxLagMs: number;
};

/**
 * Pure: where a lag-tolerant read goes. The replica only when its last check answered, it receives
 * WAL from its primary (a disconnected replica replays everything it has and looks lag-free while it
 * falls behind), no read failed on it since, and its lag plus the check's age is within `maxLagMs`:
 * replay may have stopped right after the check, so the age counts as lag, and a read is never
 * staler than the bound even when the checks themselves stall.
 */
export function chooseReadTarget({ sample, failedAt, nowMs, maxLagMs }: ChooseReadTargetParams): ReadTarget {
  const primary = (reason: ReadTargetReason): ReadTarget => ({ target: 'primary', reason });
  if (!sample) return primary('unchecked');
  if (!sample.ok) return primary('down');
  if (failedAt !== undefined && failedAt >= sample.at) return primary('query-failed');
  if (sample.inRecovery && !sample.receiving) return primary('not-receiving');
  if (sample.lagMs > maxLagMs) return primary('lagging');
  if (sample.lagMs + (nowMs - sample.at) > maxLagMs) return primary('check-overdue');
  return { target: 'replica', reason: 'healthy' };
}

/**
 * Pure: whether a failed query says the server or the connection is gone (connection refused or
 * reset, pool connect timeout, SQLSTATE class 08, or 57P0x shutdown / not yet accepting), rather than
 * something about the statement: the replica is then avoided until a check answers again.
 */
export function isConnectionFailure(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !/^[0-9A-Z]{5}$/.test(code)) return true;
  return code.startsWith('08') || code.startsWith('57P');
}

/**
 * The replica's lag, measured on the replica alone: 0 when everything received is replayed, else the
 * age of the last replayed commit. A time (comparable to a bound in ms) without a round trip to the
 * primary. `receiving` says a WAL receiver runs (visible to any role, unlike its status column).
 * Replayed "at or past" what was received: a restarted replica streams from the start of its last
 * segment, before the position it replayed, and must not count as lagging while its primary is idle.
 */
export const REPLICA_LAG_SQL = `SELECT pg_is_in_recovery() AS in_recovery,
  EXISTS (SELECT 1 FROM pg_stat_wal_receiver WHERE pid IS NOT NULL) AS receiving,
  CASE WHEN NOT pg_is_in_recovery() OR pg_last_wal_replay_lsn() >= pg_last_wal_receive_lsn() THEN 0
       ELSE coalesce(extract(epoch FROM now() - pg_last_xact_replay_timestamp()) * 1000, 'Infinity'::float8)
  END::float8 AS lag_ms`;

export type ReadReplicaStatus = {
  serving: 'replica' | 'primary';
  reason: ReadTargetReason;
  /** Lag at the last check (null before the first answer or after a failed check). */
  lagMs: number | null;
  checkedAt: string | null;
  /** The last check's failure, redacted (no credentials, no paths of the URL). */
  error: string | null;
  /** Reads that failed on the replica and were answered by the primary, since start. */
  retriedOnPrimary: number;
};

export type CreateReadPoolParams = {
  primary: PgPool;
  /** Pool of the replica's lag-tolerant reads. */
  replica: PgPool;
  /** A one-connection pool on the replica for the lag checks, so a busy read pool does not delay them. */
  monitor: PgPool;
  maxLagMs: number;
  checkIntervalMs: number;
  now?: () => number;
  onFallback?: (error: unknown) => void;
};

/**
 * Starts the lag checks (every `checkIntervalMs`, one at a time) and returns the read pool. A read
 * that fails on the replica is retried once on the primary, so a replica going away costs a retry,
 * never an error answer.
 */
export function createReadPool({
  primary,
  replica,
  monitor,
  maxLagMs,
  checkIntervalMs,
  now = Date.now,
  onFallback = () => {},
}: CreateReadPoolParams): ReadPool {
  let sample: ReplicaSample | undefined;
  let failedAt: number | undefined;
  let retried = 0;
  let checking = false;
  const check = async () => {
    if (checking) return;
    checking = true;
    // Taken before asking: the sample's age then covers the round trip too (never underestimated).
    const at = now();
    try {
      const { rows } = await monitor.query<{ in_recovery: boolean; receiving: boolean; lag_ms: number }>(
        REPLICA_LAG_SQL,
      );
      const row = rows[0]!;
      sample = { at, ok: true, lagMs: Number(row.lag_ms), receiving: row.receiving, inRecovery: row.in_recovery };
    } catch (error) {
      sample = { at, ok: false, error: redactText(error instanceof Error ? error.message : String(error)) };
    } finally {
      checking = false;
    }
  };
  void check();
  const timer = setInterval(() => void check(), checkIntervalMs);
  timer.unref();
  const target = () => chooseReadTarget({ sample, failedAt, nowMs: now(), maxLagMs });

  const query = ((...args: unknown[]) => {
    const run = (pool: PgPool) => (pool.query as (...a: unknown[]) => unknown)(...args);
    // Callbacks and submittables (cursors, streams) cannot be replayed: they go to the primary.
    const replayable =
      typeof args[args.length - 1] !== 'function' && typeof (args[0] as { submit?: unknown })?.submit !== 'function';
    if (!replayable || target().target === 'primary') return run(primary);
    return (run(replica) as Promise<unknown>).catch((error: unknown) => {
      if (isConnectionFailure(error)) failedAt = now();
      retried += 1;
      onFallback(error);
      return run(primary);
    });
  }) as PgPool['query'];

  return {
    query,
    status() {
      const { target: serving, reason } = target();
      return {
        serving,
        reason,
        lagMs: sample?.ok ? Math.round(sample.lagMs) : null,
        checkedAt: sample ? new Date(sample.at).toISOString() : null,
        error: sample && !sample.ok ? sample.error : null,
        retriedOnPrimary: retried,
      };
    },
    async close() {
      clearInterval(timer);
      await Promise.allSettled([replica.end(), monitor.end()]);
    },
  };
}
