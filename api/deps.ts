import type { ChainClients } from '../internal/rpc.js';
import type { Config } from '../internal/config.js';
import type { EsClient } from '../internal/es.js';
import type { Logger } from '../internal/logger.js';
import type { PgPool } from '../internal/pg.js';

/** What route handlers receive as factory arguments (never read from globals). */
export type ApiDeps = {
  config: Config;
  logger: Logger;
  /** Read-only pool for reads. */
  pg: PgPool;
  es: EsClient;
  rpc: ChainClients;
  /**
   * Read-write pool for operator job runs (POST /v4/internal/jobs/{name}/run): jobs write with
   * plain queries, which the read-only `pg` refuses. Without it, run-now answers 503.
   */
  jobsPg?: PgPool;
  /** Directory of the built web pages (default web/dist). */
  webDist?: string;
  /** Current Unix time in seconds; injectable so status filters are testable. */
  now?: () => number;
};

export const nowSeconds = (deps: ApiDeps): number => (deps.now ? deps.now() : Math.floor(Date.now() / 1000));
