import type { Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { createChainClients } from '../internal/rpc.js';
import { upsertChains } from '../domain/tables/chains.js';
import type { Config } from '../internal/config.js';
import { createEsClient } from '../internal/es.js';
import type { Logger } from '../internal/logger.js';
import { describeError } from '../internal/errors.js';
import { warmProofCode } from './reads/rewardProofs.js';
import { createPgPool, type PgPool, warmPgPool } from '../internal/pg.js';
import { createReadPool, type ReadPool } from '../internal/readReplica.js';
import { createApp } from './app.js';
import { warmUserRewards } from './warmUp.js';
import { flush } from './usage/usageBuffer.js';
import { createHttpServer } from './httpServer.js';

/** Connections of the API's read pool kept open: what one request's parallel reads use (GET /v4/users/{address}/rewards: 5). */
const WARM_CONNECTIONS = 6;

export type ApiServer = { server: Server; url: string; close(): Promise<void> };

/**
 * Starts the API: builds its clients, listens on config.host:port and returns a `close` that stops
 * accepting connections, waits for in-flight requests and ends the pools (graceful shutdown).
 */
export async function startApiServer({ config, logger }: { config: Config; logger: Logger }): Promise<ApiServer> {
  const onPgError = (err: Error) => logger.error({ msg: 'idle postgres client error', err: err.message });
  const pg = createPgPool(
    {
      connectionString: config.databaseUrl,
      applicationName: 'rewards-api',
      readOnly: true,
      max: 20,
      min: WARM_CONNECTIONS,
    },
    onPgError,
  );
  // Before listening: a first request (and one after a quiet spell) finds connections open and the
  // proof code run once.
  await Promise.all([warmPgPool(pg, WARM_CONNECTIONS), warmProofCode()]);
  const writer = createPgPool(
    { connectionString: config.databaseUrl, applicationName: 'rewards-api-setup', max: 1 },
    onPgError,
  );
  await upsertChains(writer, config.chains);
  await writer.end();
  const es = createEsClient({
    node: config.esUrl,
    requestTimeoutMs: config.esRequestTimeoutMs,
    sniffIntervalMs: config.esSniffIntervalMs,
  });
  // What the API asks of the job runners (job_run_requests: run-now from /ops, a privacy change's refresh).
  const jobsPg = createPgPool(
    { connectionString: config.databaseUrl, applicationName: 'rewards-api-jobs', max: 3 },
    onPgError,
  );
  const readPg = config.databaseRead && startReadPool(config.databaseRead, pg, logger, onPgError);
  const app = createApp({
    config,
    logger,
    pg,
    es,
    rpc: createChainClients(config),
    jobsPg,
    ...(readPg ? { readPg } : {}),
  });
  const server = createHttpServer(app);
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(config.port, config.host, resolve));
  const address = server.address();
  const url = `http://${config.host}:${typeof address === 'object' && address ? address.port : config.port}`;
  logger.info({ msg: 'api listening', url });
  // Through a loopback address when listening on all of them.
  const self = /^(0\.0\.0\.0|::|\[::\])$/.test(config.host) ? url.replace(`//${config.host}:`, '//127.0.0.1:') : url;
  await warmUserRewards({ url: self, pg, chainIds: config.chains.map((c) => c.id), logger });
  return {
    server,
    url,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await flush().catch((err: unknown) => logger.error({ msg: 'api key usage lost at shutdown', err: String(err) }));
      await Promise.allSettled([readPg?.close(), pg.end(), jobsPg.end(), es.close()]);
    },
  };
}

/** The read replica's pools (reads, and one connection for the lag checks) behind a ReadPool falling back to `primary`. */
function startReadPool(
  read: NonNullable<Config['databaseRead']>,
  primary: PgPool,
  logger: Logger,
  onPgError: (err: Error) => void,
): ReadPool {
  const replica = (applicationName: string, max: number) =>
    createPgPool({ connectionString: read.url, applicationName, readOnly: true, max }, onPgError);
  return createReadPool({
    primary,
    replica: replica('rewards-api-replica', 20),
    monitor: replica('rewards-api-replica-lag', 1),
    maxLagMs: read.maxLagMs,
    checkIntervalMs: read.checkIntervalMs,
    onFallback: (err) =>
      logger.warn({ msg: 'read replica query failed, answered by the primary', err: describeError(err).message }),
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { loadConfig } = await import('../internal/config.js');
  const { createLogger } = await import('../internal/logger.js');
  const config = loadConfig();
  const logger = createLogger({ level: config.logLevel, name: 'api' });
  process.on('unhandledRejection', (reason) => logger.error({ msg: 'unhandled rejection', err: String(reason) }));
  const api = await startApiServer({ config, logger }).catch((error) => {
    logger.fatal({ msg: 'api failed to start', err: String(error) });
    process.exit(1);
  });
  const shutdown = async (signal: string) => {
    logger.info({ msg: 'api stopping', signal });
    await api.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
}
