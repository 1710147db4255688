import type Koa from 'koa';
import { createApp } from '../../api/app.js';
import { loadConfig } from '../../internal/config.js';
import { createEsClient } from '../../internal/es.js';
import { createLogger } from '../../internal/logger.js';
import { createPgPool, type PgPool } from '../../internal/pg.js';
import { createChainClients } from '../../internal/rpc.js';
import { TEST_DATABASE_URL, TEST_ES_URL, uniqueIndexPrefix } from './testConfig.js';

export type AppWithoutChains = { app: Koa; pg: PgPool; close(): Promise<void> };

/**
 * The real app (production middleware) on the test database and a fresh index prefix, with no devnet and
 * no harness: for suites about HTTP behaviour that no chain takes part in (CORS, problem pages). `env` adds
 * to or overrides the test environment; the pool opens no connection until a middleware or route queries.
 */
export function createAppWithoutChains(applicationName: string, env: Record<string, string> = {}): AppWithoutChains {
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: TEST_DATABASE_URL,
    ES_URL: TEST_ES_URL,
    ES_INDEX_PREFIX: uniqueIndexPrefix(),
    ...env,
  });
  const pg = createPgPool({ connectionString: config.databaseUrl, applicationName, readOnly: true });
  const es = createEsClient({ node: config.esUrl, requestTimeoutMs: 5000 });
  const app = createApp({
    config,
    logger: createLogger({ level: 'silent', name: 'test' }),
    pg,
    es,
    rpc: createChainClients(config),
  });
  return { app, pg, close: async () => void (await Promise.allSettled([pg.end(), es.close()])) };
}
