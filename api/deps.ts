import type { ChainClients } from '../internal/rpc.js';
import type { Config } from '../internal/config.js';
import type { EsClient } from '../internal/es.js';
import type { Logger } from '../internal/logger.js';
import type { PgPool, Queryable } from '../internal/pg.js';
import type { ReadPool } from '../internal/readReplica.js';
import { sharedResult } from '../internal/sharedResult.js';

/** What route handlers receive as factory arguments (never read from globals). */
export type ApiDeps = {
  config: Config;
  logger: Logger;
  /**
   * Read-only pool on the primary: every read that must see a write (the caller's own, an operator's
   * privacy change, a session, a key, a counter) and every read not moved deliberately.
   */
  pg: PgPool;
  /**
   * Lag-tolerant reads only (README "PostgreSQL read replica" lists them): the replica of
   * DATABASE_READ_URL while healthy, the primary otherwise. Absent without a replica; routes read it
   * through readPgOf, never by default.
   */
  readPg?: ReadPool;
  es: EsClient;
  rpc: ChainClients;
  /**
   * Read-write pool for what the API asks of the job runners (job_run_requests: POST
   * /v4/internal/jobs/{name}/run, a privacy change's refresh), which the read-only `pg` refuses.
   * Without it, run-now answers 503 and a privacy change does not wait for its refresh.
   */
  jobsPg?: PgPool;
  /** Directory of the built web pages (default web/dist). */
  webDist?: string;
  /** Current Unix time in seconds; injectable so status filters are testable. */
  now?: () => number;
};

export const nowSeconds = (deps: ApiDeps): number => (deps.now ? deps.now() : Math.floor(Date.now() / 1000));

/**
 * `compute` shared for `ttlMs` (internal/sharedResult.ts) on the app's clock: `now` when injected (a test
 * moves it instead of waiting), the wall clock otherwise. For the computations a process shares between
 * callers (health, metrics, node status).
 */
export const sharedOnAppClock = <T>(deps: Pick<ApiDeps, 'now'>, compute: () => Promise<T>, ttlMs: number) =>
  sharedResult(compute, ttlMs, () => (deps.now ? deps.now() * 1000 : Date.now()));

/** Where a lag-tolerant read goes: the read replica's pool when one is configured, else the primary. */
export const readPgOf = (deps: Pick<ApiDeps, 'pg' | 'readPg'>): Queryable => deps.readPg ?? deps.pg;
