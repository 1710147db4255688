import { randomBytes } from 'node:crypto';
import type { DeployedStack } from '../../contracts/deploy.js';
import type { Devnet } from '../../contracts/devnet.js';
import { loadConfig, type ChainConfig, type Config } from '../../internal/config.js';

/** The back-office credential every test config carries (header `authorization`). */
export const TEST_BACK_OFFICE_TOKEN = 'test-back-office-token-0123456789abcdef';

/**
 * Database of the test suite; never the quick start's. In mocha's parallel mode each worker process
 * (MOCHA_WORKER_ID 0, 1, …) has its own: the name gets `_w<id>` (suites reset and clone their database).
 */
export const TEST_DATABASE_URL = workerDatabase(
  process.env['TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:55432/rewards_test',
  process.env['MOCHA_WORKER_ID'],
);

/** Pure: `url` with `_w<workerId>` appended to its database name when a worker id is given. */
export function workerDatabase(url: string, workerId: string | undefined): string {
  if (workerId === undefined || workerId === '') return url;
  const u = new URL(url);
  u.pathname = `${u.pathname}_w${workerId}`;
  return u.toString();
}
export const TEST_ES_URL = process.env['TEST_ES_URL'] ?? process.env['ES_URL'] ?? 'http://127.0.0.1:59200';

/**
 * A fresh, unique Elasticsearch index prefix per suite (indices are deleted in `after`); in a parallel run it
 * carries the run's id (TEST_RUN_ID, test/helpers/parallelRun.ts), whose teardown deletes what is left.
 */
export function uniqueIndexPrefix(): string {
  const run = process.env['TEST_RUN_ID'];
  return `test-${run ? `${run}-` : ''}${randomBytes(4).toString('hex')}`;
}

/** Chain config of a test devnet with our deployed stack. */
export function chainConfigOf(devnet: Devnet, stack: DeployedStack, overrides: Partial<ChainConfig> = {}): ChainConfig {
  return {
    id: devnet.chainId,
    name: `Test chain ${devnet.chainId}`,
    icon: `https://icons.invalid/chains/${devnet.chainId}.svg`,
    rpcUrl: devnet.rpcUrl,
    distributionCreator: stack.distributionCreator,
    distributor: stack.distributor,
    startBlock: 0,
    confirmations: 0,
    test: false,
    explorers: [],
    nativeToken: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    priceFeeds: Object.fromEntries(stack.tokens.rewards.map((t) => [t.address.toLowerCase(), t.priceFeed])),
    tokens: [
      { address: stack.tokens.rewards[0]!.address, verified: true },
      { address: stack.tokens.rewards[1]!.address, verified: true, stablecoin: true, displaySymbol: 'USDC' },
      { address: stack.tokens.rewards[2]!.address, type: 'POINT' },
    ],
    ...overrides,
  };
}

/** The real config loader fed with test values (so tests exercise the same validation). */
export function testConfig({
  chains,
  esIndexPrefix,
  env = {},
}: {
  chains: ChainConfig[];
  esIndexPrefix: string;
  env?: Record<string, string>;
}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: process.env['TEST_LOG_LEVEL'] ?? 'silent',
    DATABASE_URL: TEST_DATABASE_URL,
    ES_URL: TEST_ES_URL,
    ES_INDEX_PREFIX: esIndexPrefix,
    CHAINS: JSON.stringify(chains),
    RPC_RETRIES: '1',
    BACK_OFFICE_TOKEN: TEST_BACK_OFFICE_TOKEN,
    // Every suite creates its keys from 127.0.0.1; a suite that tests the bound sets its own (clientLimits.test.ts).
    API_KEYS_PER_ADDRESS_PER_DAY: '1000000',
    ...env,
  });
}

/**
 * Environment for a child process (jobs CLI) that must see the same services, indices and chains
 * as the suite's config; `extra` adds or overrides variables.
 */
export function childProcessEnv(config: Config, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env['PATH'] ?? '',
    HOME: process.env['HOME'] ?? '',
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    DATABASE_URL: config.databaseUrl,
    ES_URL: config.esUrl,
    ES_INDEX_PREFIX: config.esIndexPrefix,
    ES_SHARDS: String(config.esIndexShape.shards),
    ES_REPLICAS: String(config.esIndexShape.replicas),
    ES_SNIFF_INTERVAL_MS: String(config.esSniffIntervalMs),
    CHAINS: JSON.stringify(config.chains),
    ...(config.prices.apiUrl ? { PRICE_API_URL: config.prices.apiUrl } : {}),
    ...(config.rewardTrees.source ? { REWARD_TREE_SOURCE: config.rewardTrees.source } : {}),
    ...extra,
  };
}
