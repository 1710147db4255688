import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { jsonRpc } from '../contracts/devnet.js';
import { deployStack } from '../contracts/deploy.js';
import { isRpcUp, startDevnet, type Devnet } from '../contracts/devnet.js';
import { startApiServer } from '../api/server.js';
import { createJobDeps } from '../jobs/deps.js';
import { JOBS } from '../jobs/registry.js';
import { runJob } from '../jobs/runJob.js';
import { startScheduler } from '../jobs/scheduler.js';
import { loadConfig } from '../internal/config.js';
import { QUICK_START_ENV_FILE, writeEnvFile } from '../internal/envFile.js';
import { QUICK_START_ENV_HEADER, quickStartSettings } from './quickStartSettings.js';
import { DEVNET_ADDRESSES, DEVNETS } from '../internal/devnetChains.js';
import { describeError } from '../internal/errors.js';
import { createLogger } from '../internal/logger.js';
import { createPgPool } from '../internal/pg.js';
import { deleteIndices, ensureIndices } from '../search-mappings/aliases.js';
import { ensureDatabase, migrate } from '../sql/migrate.js';
import { DEMO_MARKETS, demoMarketAddress, seedDemoCampaigns } from './seedDemo.js';
import { startPriceApiServer } from './priceApiServer.js';
import { seedCreators } from './seedCreators.js';
import { seedPrograms } from './seedPrograms.js';
import { writeDemoHistory } from './demoHistory.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const DATA = `${ROOT}.data`;

/** A development JWT secret generated once and kept in .data (never committed). */
function devSecret(name = 'dev-jwt-secret'): string {
  const file = `${DATA}/${name}`;
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600 });
  return readFileSync(file, 'utf8').trim();
}

/**
 * The quick start's second half (scripts/start.sh brings PostgreSQL and Elasticsearch up first):
 * starts both devnets unless they already answer, and on fresh devnets resets the dev database and
 * indices (their chain is new), deploys our contracts and seeds demo campaigns; then runs every
 * job once, schedules them and serves the API until SIGINT/SIGTERM, stopping what it started.
 */
async function main(): Promise<void> {
  mkdirSync(DATA, { recursive: true });
  process.env['JWT_SECRET'] ||= devSecret();
  process.env['BACK_OFFICE_TOKEN'] ||= devSecret('dev-back-office-token');
  // External sources of the demo: a local coins-price API (markets have no feed) and a tree directory.
  const priceApi = await startPriceApiServer();
  process.env['PRICE_API_URL'] ||= priceApi.url;
  process.env['REWARD_TREE_SOURCE'] ||= `${DATA}/reward-trees`;
  // Its own environment only (not the file it writes below, which may hold an earlier start's settings).
  const config = loadConfig(process.env);
  const logger = createLogger({ level: config.logLevel, name: 'dev' });
  // The CLI (`npm run jobs:run -- prices`, jobs:list, …) and any API or scheduler started by hand
  // load this file too (internal/envFile.ts): they run with this process's settings, price API included.
  writeEnvFile(QUICK_START_ENV_FILE, quickStartSettings(process.env), QUICK_START_ENV_HEADER);
  logger.info({ msg: 'settings written for the CLI', file: QUICK_START_ENV_FILE });
  const started: Devnet[] = [];
  const stops: (() => Promise<void>)[] = [];
  let stopping = false;
  const stopAll = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ msg: 'stopping', signal });
    for (const stop of stops.reverse())
      await stop().catch((e) => logger.error({ msg: 'stop failed', err: describeError(e) }));
    await Promise.allSettled(started.map((d) => d.stop()));
    process.exit(0);
  };
  process.once('SIGINT', () => void stopAll('SIGINT'));
  process.once('SIGTERM', () => void stopAll('SIGTERM'));

  for (const d of DEVNETS) {
    const rpcUrl = `http://127.0.0.1:${d.port}`;
    if ((await isRpcUp(rpcUrl)) !== false) {
      logger.info({ msg: 'devnet already running', chain_id: d.id, rpc_url: rpcUrl });
      continue;
    }
    const t0 = Date.now();
    started.push(await startDevnet({ chainId: d.id, port: d.port, logFile: `${DATA}/devnet-${d.id}.log` }));
    logger.info({ msg: 'devnet started', chain_id: d.id, rpc_url: rpcUrl, duration_ms: Date.now() - t0 });
  }

  await ensureDatabase(config.databaseUrl);
  const es = (await import('../internal/es.js')).createEsClient({ node: config.esUrl, requestTimeoutMs: 30000 });
  if (started.length) {
    // Fresh devnets are new chains: whatever was indexed from the previous ones is gone.
    const admin = createPgPool({ connectionString: config.databaseUrl, applicationName: 'dev-reset', max: 1 });
    await admin.query('DROP SCHEMA IF EXISTS public, reward_staging CASCADE; CREATE SCHEMA public;');
    await admin.end();
    await deleteIndices({ es, prefix: config.esIndexPrefix });
    logger.info({ msg: 'dev database and indices reset for fresh devnets' });
  }
  await migrate({ databaseUrl: config.databaseUrl, logger });
  await ensureIndices({ es, prefix: config.esIndexPrefix, logger, shape: config.esIndexShape });
  await es.close();

  for (const chain of config.chains) {
    const code = await jsonRpc<string>(chain.rpcUrl, 'eth_getCode', [chain.distributionCreator, 'latest']);
    if (code !== '0x') continue;
    const stack = await deployStack({ rpcUrl: chain.rpcUrl, chainId: chain.id });
    if (stack.distributionCreator.toLowerCase() !== chain.distributionCreator.toLowerCase()) {
      throw new Error(
        `chain ${chain.id}: DistributionCreator deployed at ${stack.distributionCreator}, config expects ${chain.distributionCreator}`,
      );
    }
    const seeded = await seedDemoCampaigns({
      rpcUrl: chain.rpcUrl,
      chainId: chain.id,
      stack,
      treeDir: config.rewardTrees.source ?? `${DATA}/reward-trees`,
    });
    await jsonRpc(chain.rpcUrl, 'evm_setIntervalMining', [5000]);
    logger.info({
      msg: 'contracts deployed and demo data seeded',
      chain_id: chain.id,
      campaigns: seeded.campaigns,
      markets: seeded.markets.length,
      roots: seeded.roots.length,
      claims: seeded.claims,
    });
  }
  // Prices of the demo markets and targets (chain key `chain-<id>` as configured by default).
  for (const chain of config.chains) {
    DEMO_MARKETS.forEach((m, i) =>
      priceApi.prices.set(`chain-${chain.id}:${demoMarketAddress(i).toLowerCase()}`, m.priceUsd),
    );
    DEVNET_ADDRESSES.targetTokens.forEach((t, i) =>
      priceApi.prices.set(`chain-${chain.id}:${t.toLowerCase()}`, [4, 12][i]!),
    );
  }
  stops.push(() => priceApi.close());

  const deps = createJobDeps(config, logger, new AbortController().signal);
  for (const job of JOBS) await runJob(job, deps);
  await seedCreators(deps.pg);
  await seedPrograms(deps.pg);
  if (started.length) {
    // The demo's history: snapshots as of every 6 hours since the earliest campaign started.
    logger.info({ msg: 'demo history snapshots written', snapshots: await writeDemoHistory(deps) });
  }
  await deps.close();

  const scheduler = startScheduler({ config, logger });
  stops.push(() => scheduler.stop());
  const api = await startApiServer({ config, logger });
  stops.push(() => api.close());
  logger.info({
    msg: 'ready',
    api: api.url,
    explorer: `${api.url}/`,
    operations: `${api.url}/ops`,
    try: `${api.url}/v4/campaigns`,
    health: `${api.url}/v4/health`,
    back_office_token_file: `${DATA}/dev-back-office-token`,
  });
}

main().catch((error) => {
  console.error(
    JSON.stringify({
      level: 'fatal',
      msg: 'quick start failed',
      err: describeError(error),
      stack: (error as Error).stack,
    }),
  );
  process.exit(1);
});
