/**
 * Our side of the peer benchmark: the blocks and campaigns jobs, run once each over a prepared devnet,
 * into a freshly migrated database and fresh Elasticsearch indices of their own.
 */
import { benchIndexShape } from './benchParams.js';
import type { DeployedStack } from '../../contracts/deploy.js';
import { createJobDeps } from '../../jobs/deps.js';
import { findJob } from '../../jobs/registry.js';
import { runJob } from '../../jobs/runJob.js';
import { loadConfig } from '../../internal/config.js';
import { indexNames } from '../../internal/es.js';
import type { Logger } from '../../internal/logger.js';
import { deleteIndices, ensureIndices } from '../../search-mappings/aliases.js';
import { resetDatabase } from '../../test/helpers/database.js';
import { benchIndexerEnv } from './campaignDevnet.js';
import { waitForRowCount } from './waitForRowCount.js';

export type RunOurIndexerParams = {
  rpcUrl: string;
  chainId: number;
  stack: DeployedStack;
  expected: number;
  databaseUrl: string;
  esPrefix: string;
  logger: Logger;
};

export type RunOurIndexerResult = {
  /** Blocks job alone (headers our campaigns job reads timestamps and hashes from). */
  blocksSeconds: number;
  /** From the start of the blocks job until the poll sees every campaign row (like Ponder's figure). */
  toPostgresSeconds: number;
  /** From the same start until every campaign document is searchable in Elasticsearch. */
  endToEndSeconds: number;
};

/**
 * Indexes the devnet's campaigns with our jobs, timing PostgreSQL and Elasticsearch arrival.
 * Tables: every table of the campaigns and blocks jobs in `databaseUrl` (schema reset first).
 * Indices: `<esPrefix>-campaigns`, `<esPrefix>-opportunities` (deleted and recreated first).
 * @throws Error if fewer than `expected` campaigns end up in either store.
 */
export async function runOurIndexer({
  rpcUrl,
  chainId,
  stack,
  expected,
  databaseUrl,
  esPrefix,
  logger,
}: RunOurIndexerParams): Promise<RunOurIndexerResult> {
  const config = loadConfig(benchIndexerEnv({ rpcUrl, chainId, stack, databaseUrl, prefix: esPrefix }));
  await resetDatabase(databaseUrl);
  const deps = createJobDeps(config, logger, new AbortController().signal);
  const stopPolling = new AbortController();
  try {
    await deleteIndices({ es: deps.es, prefix: esPrefix });
    await ensureIndices({ es: deps.es, prefix: esPrefix, logger, shape: benchIndexShape() });
    const index = indexNames(esPrefix, 'campaigns').read;

    const t0 = performance.now();
    const inPostgres = waitForRowCount({
      databaseUrl,
      countSql: 'SELECT count(*) AS n FROM campaigns',
      expected,
      since: t0,
      timeoutMs: 3_600_000,
      signal: stopPolling.signal,
    });
    inPostgres.catch(() => undefined); // awaited below; a job failure must not leave it unhandled
    await runJob(findJob('blocks')!, deps);
    const blocksSeconds = (performance.now() - t0) / 1000;
    await runJob(findJob('campaigns')!, deps);
    await deps.es.indices.refresh({ index });
    const searchable = (await deps.es.count({ index })).count;
    const endToEndSeconds = (performance.now() - t0) / 1000;
    if (searchable !== expected)
      throw new Error(`our indexer: ${searchable} searchable campaigns, expected ${expected}`);
    const { seconds: toPostgresSeconds } = await inPostgres;
    return { blocksSeconds, toPostgresSeconds, endToEndSeconds };
  } finally {
    stopPolling.abort('our jobs ended');
    await deps.close();
  }
}
