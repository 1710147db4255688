/**
 * Indexer benchmark (a script that prints figures, never a timed test): `npm run bench:indexer`.
 * For N = 10k and 100k NewCampaign logs on a fresh devnet it measures, in the same run:
 *  - the raw getLogs + decode rate over the same logs (RPC → typed rows, no storage);
 *  - campaigns indexed per second end to end: RPC → PostgreSQL → searchable in Elasticsearch, with
 *    the indexer's CPU time and peak RSS meanwhile (the job runs in this process);
 * and their ratio; then freshness p50/p95 (chain event → searchable document) with the scheduler,
 * on its crons alone (every second) and in follow mode (head polled every BENCH_FOLLOW_POLL_MS,
 * outbox writes waking the projector). Uses its own database (rewards_bench) and index prefix (bench).
 * Options: BENCH_SIZES=10000,100000 (empty: none)  BENCH_FRESHNESS_SAMPLES=40  BENCH_FOLLOW_POLL_MS=250
 */
import { deployStack } from '../../contracts/deploy.js';
import { findFreePort, startDevnet } from '../../contracts/devnet.js';
import { createChainClients } from '../../internal/rpc.js';
import { createJobDeps } from '../../jobs/deps.js';
import { findJob } from '../../jobs/registry.js';
import { runJob } from '../../jobs/runJob.js';
import { startScheduler } from '../../jobs/scheduler.js';
import { loadConfig } from '../../internal/config.js';
import { indexNames } from '../../internal/es.js';
import { createLogger } from '../../internal/logger.js';
import { deleteIndices, ensureIndices } from '../../search-mappings/aliases.js';
import { resetDatabase } from '../../test/helpers/database.js';
import { rawGetLogs } from './rawGetLogs.js';
import {
  benchChainConfig,
  benchIndexerEnv,
  CAMPAIGNS_PER_TX,
  createCampaigns,
  startCampaignDevnet,
} from './campaignDevnet.js';
import { percentile, benchIndexShape } from './benchParams.js';
import { describeCpu, snapshotCpu } from './machineCpu.js';

const DATABASE_URL = process.env['BENCH_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:55432/rewards_bench';
const PREFIX = 'bench';
const sizes = (process.env['BENCH_SIZES'] ?? '10000,100000').split(',').filter(Boolean).map(Number);
const followPollMs = Number(process.env['BENCH_FOLLOW_POLL_MS'] ?? 250);
const freshnessSamples = Number(process.env['BENCH_FRESHNESS_SAMPLES'] ?? 40);
const logger = createLogger({ level: process.env['LOG_LEVEL'] ?? 'warn', name: 'bench' });

async function benchSize(n: number): Promise<void> {
  const { devnet, stack, createSeconds } = await startCampaignDevnet({ chainId: 31337, campaigns: n });
  try {
    console.log(
      `\nN = ${n}: created ${n} campaigns in ${createSeconds.toFixed(1)} s (${Math.ceil(n / CAMPAIGNS_PER_TX)} txs)`,
    );

    const config = loadConfig(
      benchIndexerEnv({ rpcUrl: devnet.rpcUrl, chainId: 31337, stack, databaseUrl: DATABASE_URL, prefix: PREFIX }),
    );
    await resetDatabase(DATABASE_URL);
    const deps = createJobDeps(config, logger, new AbortController().signal);
    await deleteIndices({ es: deps.es, prefix: PREFIX });
    await ensureIndices({ es: deps.es, prefix: PREFIX, logger, shape: benchIndexShape() });

    // Raw getLogs + decode over the same logs (no storage).
    const { client } = createChainClients(config).get(31337)!;
    const groups = { ours: process.pid, devnets: [devnet.pid] };
    const rawCpu0 = snapshotCpu(groups);
    const { decoded, seconds: rawSeconds } = await rawGetLogs({
      client,
      chainId: 31337,
      address: stack.distributionCreator,
      head: Number(await client.getBlockNumber()),
    });
    const rawCpu = describeCpu(rawCpu0, snapshotCpu(groups));

    // End to end: headers, then campaigns (persist + publish), until all are searchable.
    await runJob(findJob('blocks')!, deps);
    const e0 = performance.now();
    const cpu0 = process.cpuUsage();
    const e2eCpu0 = snapshotCpu(groups);
    // Peak resident memory of this process (the indexer) while it runs, sampled every 50 ms.
    const rssBefore = process.memoryUsage.rss();
    let rssPeak = rssBefore;
    const rssSampler = setInterval(() => {
      rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
    }, 50);
    await runJob(findJob('campaigns')!, deps);
    await deps.es.indices.refresh({ index: indexNames(PREFIX, 'campaigns').read });
    const searchable = (await deps.es.count({ index: indexNames(PREFIX, 'campaigns').read })).count;
    const e2eSeconds = (performance.now() - e0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const e2eCpu = describeCpu(e2eCpu0, snapshotCpu(groups));
    clearInterval(rssSampler);
    const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
    console.log(`  indexer process RSS: ${mib(rssBefore)} MiB before, peak ${mib(rssPeak)} MiB during end to end`);
    console.log(
      `  indexer process CPU during end to end: ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s (user ${(cpu.user / 1e6).toFixed(2)}, system ${(cpu.system / 1e6).toFixed(2)})`,
    );
    if (decoded !== n || searchable !== n)
      throw new Error(`expected ${n}, decoded ${decoded}, searchable ${searchable}`);
    const rawRate = n / rawSeconds;
    const e2eRate = n / e2eSeconds;
    console.log(`  raw getLogs+decode: ${rawRate.toFixed(0)} campaigns/s (${rawSeconds.toFixed(2)} s)`);
    console.log(
      `  end to end (RPC → PostgreSQL → searchable): ${e2eRate.toFixed(0)} campaigns/s (${e2eSeconds.toFixed(2)} s)`,
    );
    console.log(`  raw ${rawCpu}`);
    console.log(`  end to end ${e2eCpu}`);
    console.log(`  ratio end-to-end / raw: ${(e2eRate / rawRate).toFixed(2)}`);
    await deps.close();
  } finally {
    await devnet.stop();
  }
}

async function benchFreshness(pollMs: number): Promise<void> {
  const port = await findFreePort();
  const devnet = await startDevnet({ chainId: 31337, port });
  try {
    const stack = await deployStack({ rpcUrl: devnet.rpcUrl, chainId: 31337 });
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DATABASE_URL,
      ES_INDEX_PREFIX: PREFIX,
      CHAINS: JSON.stringify([benchChainConfig(devnet.rpcUrl, 31337, stack)]),
      JOB_BLOCKS_CRON: '* * * * * *',
      JOB_CAMPAIGNS_CRON: '* * * * * *',
      JOB_PUBLISH_CRON: '* * * * * *',
      FOLLOW_POLL_MS: String(pollMs),
    });
    await resetDatabase(DATABASE_URL);
    const deps = createJobDeps(config, logger, new AbortController().signal);
    await deleteIndices({ es: deps.es, prefix: PREFIX });
    await ensureIndices({ es: deps.es, prefix: PREFIX, logger, shape: benchIndexShape() });
    const scheduler = startScheduler({
      config,
      logger,
      jobs: ['blocks', 'campaigns', 'publish'].map((n) => findJob(n)!),
    });
    const index = indexNames(PREFIX, 'campaigns').read;
    const samples: number[] = [];
    for (let i = 0; i < freshnessSamples; i++) {
      const minedAt = Date.now();
      await createCampaigns({ rpcUrl: devnet.rpcUrl, chainId: 31337, stack, count: 1, startOffset: 10_000_000 + i });
      for (let seen = 0; seen <= i; ) {
        await new Promise((r) => setTimeout(r, 50));
        seen = (await deps.es.count({ index })).count;
        if (seen > i) samples.push((Date.now() - minedAt) / 1000);
        if (Date.now() - minedAt > 30_000) throw new Error('campaign not searchable within 30 s');
      }
    }
    await scheduler.stop();
    await deps.close();
    samples.sort((a, b) => a - b);
    console.log(
      `\nfreshness, ${pollMs ? `follow mode (head polled every ${pollMs} ms)` : 'crons alone (every second)'} (${samples.length} campaigns): p50 ${percentile(samples, 50).toFixed(2)} s, p95 ${percentile(samples, 95).toFixed(2)} s`,
    );
  } finally {
    await devnet.stop();
  }
}

console.log(`indexer benchmark — ${new Date().toISOString()}, node ${process.version}`);
try {
  for (const n of sizes) await benchSize(n);
  if (freshnessSamples > 0) for (const pollMs of [0, followPollMs]) await benchFreshness(pollMs);
} catch (error) {
  console.error(
    `benchmark failed: ${(error instanceof Error ? error.message : String(error)).split('\n').slice(0, 3).join(' ')}`,
  );
  process.exit(1);
}

process.exit(0);
