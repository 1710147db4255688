import type Koa from 'koa';
import supertest from 'supertest';
import { createApp } from '../../api/app.js';
import { createJobDeps } from '../../jobs/deps.js';
import { findJob } from '../../jobs/registry.js';
import { runJob } from '../../jobs/runJob.js';
import type { JobDeps } from '../../jobs/control/types.js';
import type { Config, ChainConfig } from '../../internal/config.js';
import { createLogger } from '../../internal/logger.js';
import { createPgPool, type PgPool } from '../../internal/pg.js';
import { deleteIndices, ensureIndices } from '../../search-mappings/aliases.js';
import { resetDatabase } from './database.js';
import { chainConfigOf, testConfig, uniqueIndexPrefix } from './testConfig.js';
import { leaseTestChains } from './sharedChains.js';
import type { TestChain } from './testChains.js';

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
  /**
   * Devnets of this suite's own instead of the process's shared ones (reset by snapshot per harness):
   * for a suite that stops or replaces a chain, or must not share one.
   */
  isolatedChains?: boolean;
};

/**
 * Everything an integration suite needs, all real: devnets with our contracts (the process's shared
 * devnets reverted to their post-deploy snapshot, see sharedChains.ts), a freshly migrated
 * test database, this suite's own Elasticsearch indices, job deps and the Koa app (no listen).
 */
export async function createHarness({
  chainIds,
  chainOverrides,
  env,
  isolatedChains,
}: CreateHarnessParams = {}): Promise<Harness> {
  const testChains = await leaseTestChains(chainIds, { isolated: isolatedChains });
  try {
    return await harnessOn(testChains, { chainOverrides, env });
  } catch (error) {
    await testChains.stop();
    throw error;
  }
}

async function harnessOn(
  testChains: { chains: TestChain[]; stop(): Promise<void> },
  { chainOverrides, env }: Pick<CreateHarnessParams, 'chainOverrides' | 'env'>,
): Promise<Harness> {
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
