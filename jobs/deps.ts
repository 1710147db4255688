import { createChainClients } from '../internal/rpc.js';
import type { Config } from '../internal/config.js';
import { createEsClient } from '../internal/es.js';
import type { Logger } from '../internal/logger.js';
import { createPgPool } from '../internal/pg.js';
import type { JobDeps } from '../domain/jobs/types.js';

/**
 * Connections of a scheduler process: each running unit holds one for its advisory lock and may
 * hold a transaction while it queries, so two per unit, plus two and the outbox and event
 * listeners', plus one per webhook delivery worker (for its short claim and record statements; none is
 * held across a request, #43) and the webhook run's own LISTEN, at least 10.
 */
export const jobPoolSize = (config: Pick<Config, 'schedulerConcurrency' | 'webhooks'>) =>
  Math.max(10, 2 * config.schedulerConcurrency + 4 + config.webhooks.concurrency);

/** Builds the clients jobs share; `close` ends them all. */
export function createJobDeps(
  config: Config,
  logger: Logger,
  signal: AbortSignal,
): JobDeps & { close(): Promise<void> } {
  const pg = createPgPool(
    { connectionString: config.databaseUrl, applicationName: 'rewards-jobs', max: jobPoolSize(config) },
    (err) => logger.error({ msg: 'idle postgres client error', err: err.message }),
  );
  const es = createEsClient({
    node: config.esUrl,
    requestTimeoutMs: Math.max(config.esRequestTimeoutMs, 30000),
    sniffIntervalMs: config.esSniffIntervalMs,
  });
  const rpc = createChainClients(config);
  return {
    config,
    logger,
    pg,
    es,
    rpc,
    signal,
    async close() {
      await Promise.allSettled([pg.end(), es.close()]);
    },
  };
}
