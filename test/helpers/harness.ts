import type Koa from 'koa';
import type supertest from 'supertest';
import { createApp } from '../../api/app.js';
import type { ApiDeps } from '../../api/deps.js';
import { createJobDeps } from '../../jobs/deps.js';
import { findJob, JOBS } from '../../jobs/registry.js';
import { startRunRequestWorker, type RunRequestWorker } from '../../jobs/runRequestWorker.js';
import { runJob } from '../../jobs/runJob.js';
import type { JobDeps } from '../../domain/jobs/types.js';
import type { Config, ChainConfig } from '../../internal/config.js';
import { createLogger } from '../../internal/logger.js';
import { createPgPool, type PgPool } from '../../internal/pg.js';
import { INDEX_FAMILIES, deleteIndices, ensureIndices } from '../../search-mappings/aliases.js';
import { indexNames } from '../../internal/es.js';
import { serveApp } from './appServer.js';
import { cloneDatabase, freshDatabase } from './database.js';
import { chainConfigOf, testConfig, uniqueIndexPrefix } from './testConfig.js';
import { type ChainVariant, type LeasedChains, leaseTestChains } from './sharedChains.js';
import type { TestChain } from './testChains.js';

export type Harness = {
  config: Config;
  chains: TestChain[];
  /** What `chainVariant.prepare` returned for each chain. */
  prepared: unknown[];
  deps: JobDeps & { close(): Promise<void> };
  apiPg: PgPool;
  app: Koa;
  /**
   * Another app on this harness's standard deps (config, logger, the API and jobs pools,
   * Elasticsearch, RPC) with `overrides` (a changed config, a dead pool, another RPC client…).
   */
  createApp(overrides?: Partial<ApiDeps>): Koa;
  /** Where `app` is served (http://127.0.0.1:<port>), for clients other than `request()` (fetch, scripts). */
  url: string;
  request(): ReturnType<typeof supertest>;
  runJob(name: string): ReturnType<typeof runJob>;
  /** Makes every write to this suite's indices searchable now. */
  refresh(): Promise<void>;
  /**
   * Starts a job runner on this harness's job deps (jobs/runRequestWorker.ts, as the scheduler does)
   * and resolves once it listens, so POST /v4/internal/jobs/{name}/run is answered; `close` stops it.
   */
  startJobRunner(): Promise<void>;
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
  /** Devnets leased by the caller (leaseTestChains) instead of by the harness; `close` calls their `stop`. */
  chains?: LeasedChains;
  /** Devnets prepared once by `prepare` and reset to that prepared state per harness (see sharedChains.ts). */
  chainVariant?: ChainVariant;
  /**
   * Starts from a copy of a prepared state instead of an empty one: the test database is cloned from
   * database `database` (CREATE DATABASE … TEMPLATE), and this suite's indices are filled from the
   * indices of prefix `esIndexPrefix` (_reindex).
   */
  from?: { database: string; esIndexPrefix: string };
  /** Leaves this harness's Elasticsearch indices behind on close (a template's). */
  keepIndices?: boolean;
};

type HarnessOptions = Pick<CreateHarnessParams, 'chainOverrides' | 'env' | 'from' | 'keepIndices'>;

/**
 * Everything an integration suite needs, all real: devnets with our contracts (the process's shared
 * devnets reverted to their post-deploy snapshot, see sharedChains.ts), a freshly migrated
 * test database, this suite's own Elasticsearch indices, job deps and the Koa app (served on 127.0.0.1 for
 * `request()`: appServer.ts).
 */
export async function createHarness({
  chainIds,
  isolatedChains,
  chainVariant,
  chains,
  ...options
}: CreateHarnessParams = {}): Promise<Harness> {
  const testChains = chains ?? (await leaseTestChains(chainIds, { isolated: isolatedChains, variant: chainVariant }));
  try {
    return await harnessOn(testChains, options);
  } catch (error) {
    await testChains.stop();
    throw error;
  }
}

async function harnessOn(
  testChains: LeasedChains,
  { chainOverrides, env, from, keepIndices }: HarnessOptions,
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
  if (from) await cloneDatabase(config.databaseUrl, from.database);
  else await freshDatabase(config.databaseUrl);
  const logger = createLogger({ level: config.logLevel, name: 'test' });
  const deps = createJobDeps(config, logger, new AbortController().signal);
  await ensureIndices({ es: deps.es, prefix, logger, shape: config.esIndexShape });
  if (from) await copyIndices(deps.es, from.esIndexPrefix, prefix);
  const apiPg = createPgPool({ connectionString: config.databaseUrl, applicationName: 'test-api', readOnly: true });
  const standardDeps: ApiDeps = { config, logger, pg: apiPg, es: deps.es, rpc: deps.rpc, jobsPg: deps.pg };
  const app = createApp(standardDeps);
  const served = await serveApp(app);
  let runner: RunRequestWorker | undefined;
  return {
    config,
    chains: testChains.chains,
    prepared: testChains.prepared,
    deps,
    apiPg,
    app,
    createApp: (overrides = {}) => createApp({ ...standardDeps, ...overrides }),
    url: served.url,
    request: served.request,
    runJob: (name) =>
      runJob(
        findJob(name) ??
          (() => {
            throw new Error(`no job ${name}`);
          })(),
        deps,
      ),
    refresh: async () => void (await deps.es.indices.refresh({ index: `${prefix}-*` })),
    async startJobRunner() {
      runner ??= startRunRequestWorker({ deps, jobs: JOBS });
      await runner.ready;
    },
    async close() {
      await served.close();
      await runner?.stop();
      if (!keepIndices) await deleteIndices({ es: deps.es, prefix }).catch(() => {});
      await Promise.allSettled([apiPg.end(), deps.close(), testChains.stop()]);
    },
  };
}

/**
 * Copies every document (same ids) of each index family from prefix `from` into the write aliases of
 * prefix `to` (scroll + bulk: this Elasticsearch has no _reindex module).
 */
async function copyIndices(es: JobDeps['es'], from: string, to: string): Promise<void> {
  for (const family of INDEX_FAMILIES) {
    const dest = indexNames(to, family).write;
    let page = await es.search({ index: indexNames(from, family).read, scroll: '1m', size: 1000, sort: ['_doc'] });
    try {
      while (page.hits.hits.length > 0) {
        const operations = page.hits.hits.flatMap((hit) => [{ index: { _index: dest, _id: hit._id } }, hit._source]);
        const res = await es.bulk({ operations });
        if (res.errors) throw new Error(`copying ${family} documents failed: ${JSON.stringify(res.items[0])}`);
        if (!page._scroll_id) break;
        page = await es.scroll({ scroll_id: page._scroll_id, scroll: '1m' });
      }
    } finally {
      if (page._scroll_id) await es.clearScroll({ scroll_id: page._scroll_id }).catch(() => {});
    }
  }
  await es.indices.refresh({ index: `${to}-*` });
}
