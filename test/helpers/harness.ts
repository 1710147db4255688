import type Koa from 'koa';
import supertest from 'supertest';
import { createApp } from '../../api/app.js';
import { createJobDeps } from '../../jobs/deps.js';
import { findJob } from '../../jobs/registry.js';
import { runJob } from '../../jobs/runJob.js';
import type { JobDeps } from '../../domain/jobs/types.js';
import type { Config, ChainConfig } from '../../internal/config.js';
import { createLogger } from '../../internal/logger.js';
import { createPgPool, type PgPool } from '../../internal/pg.js';
import { deleteIndices, ensureIndices } from '../../search-mappings/aliases.js';
import { resetDatabase } from './database.js';
import { chainConfigOf, testConfig, uniqueIndexPrefix } from './testConfig.js';
import { startTestChains, type TestChain } from './testChains.js';

export type Harness = {
  config: Config;
  chains: TestChain[];
  deps: JobDeps & { close(): Promise<void> };
  apiPg: PgPool;
  app: Koa;
  request(): ReturnType<typeof supertest>;
  runJob(name: string): ReturnType<typeof runJob>;
  /** Makes every write to this suite's indices searchable now. */
  refresh(): Promise<void>;
  close(): Promise<void>;
};

export type CreateHarnessParams = {
  chainIds?: number[];
  /** Fields to override in each chain's config, or a function of that config giving them. */
  chainOverrides?: Partial<ChainConfig> | ((base: ChainConfig) => Partial<ChainConfig>);
  env?: Record<string, string>;
};

/**
 * Everything an integration suite needs, all real: devnets with our contracts, a freshly migrated
 * test database, this suite's own Elasticsearch indices, job deps and the Koa app (no listen).
 */
export async function createHarness({ chainIds, chainOverrides, env }: CreateHarnessParams = {}): Promise<Harness> {
  const testChains = await startTestChains(chainIds);
  const prefix = uniqueIndexPrefix();
  const config = testConfig({
    chains: testChains.chains.map((c) => {
      const base = chainConfigOf(c.devnet, c.stack);
      return { ...base, ...(typeof chainOverrides === 'function' ? chainOverrides(base) : chainOverrides) };
    }),
    esIndexPrefix: prefix,
    env,
  });
  await resetDatabase(config.databaseUrl);
  const logger = createLogger({ level: config.logLevel, name: 'test' });
  const deps = createJobDeps(config, logger, new AbortController().signal);
  await ensureIndices({ es: deps.es, prefix, logger, shape: config.esIndexShape });
  const apiPg = createPgPool({ connectionString: config.databaseUrl, applicationName: 'test-api', readOnly: true });
  const app = createApp({ config, logger, pg: apiPg, es: deps.es, rpc: deps.rpc, jobsPg: deps.pg });
  return {
    config,
    chains: testChains.chains,
    deps,
    apiPg,
    app,
    request: () => supertest(app.callback()),
    runJob: (name) =>
      runJob(
        findJob(name) ??
          (() => {
            throw new Error(`no job ${name}`);
          })(),
        deps,
      ),
    refresh: async () => void (await deps.es.indices.refresh({ index: `${prefix}-*` })),
    async close() {
      await deleteIndices({ es: deps.es, prefix }).catch(() => {});
      await Promise.allSettled([apiPg.end(), deps.close(), testChains.stop()]);
    },
  };
}
