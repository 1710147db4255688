import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { loadConfig } from '../../../internal/config.js';
import { ConfigError } from '../../../internal/errors.js';

const SECRET = 'x'.repeat(32);

function chain(id: number, overrides: Record<string, unknown> = {}) {
  return {
    id,
    name: `Chain ${id}`,
    rpcUrl: `http://127.0.0.1:${8000 + (id % 1000)}`,
    distributionCreator: '0x1111111111111111111111111111111111111111',
    distributor: '0x2222222222222222222222222222222222222222',
    ...overrides,
  };
}

/** Calls loadConfig and returns the ConfigError it throws (fails the test if it does not throw one). */
function configError(env: Record<string, string | undefined>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).to.be.instanceOf(ConfigError);
    return error as ConfigError;
  }
  expect.fail('loadConfig did not throw');
}

describe('internal/config', () => {
  describe('loadConfig', () => {
    it('applies the documented defaults to an empty environment', () => {
      const config = loadConfig({});
      expect(config).to.include({
        env: 'development',
        host: '127.0.0.1',
        port: 3000,
        logLevel: 'info',
        databaseUrl: 'postgres://postgres@127.0.0.1:55432/rewards',
        esUrl: 'http://127.0.0.1:59200',
        esIndexPrefix: 'rewards',
        esRequestTimeoutMs: 5000,
      });
      expect(config.indexer).to.deep.equal({
        maxLogRange: 5000,
        maxBlockBatch: 500,
        rpcTimeoutMs: 10000,
        rpcRetries: 3,
        readGas: 300000,
        callGas: 10000000,
        publishBatch: 500,
      });
      expect(config.configStore).to.deep.equal({ perMinute: 30, maxPendingPerCaller: 1000, unassociatedTtlDays: 7 });
      expect(config.schedules, 'jobs keep their own default schedules').to.deep.equal({});
      expect(loadConfig({ JOB_PRICES_CRON: '0 * * * * *' }).schedules).to.deep.equal({ prices: '0 * * * * *' });
      expect(
        loadConfig({ JOB_CAMPAIGN_FEES_CRON: '0 0 * * * *', JOB_BENCHMARK_RATE_CRON: '0 30 * * * *' }).schedules,
        'hyphenated job names are spelled with underscores',
      ).to.deep.equal({ 'campaign-fees': '0 0 * * * *', 'benchmark-rate': '0 30 * * * *' });
    });

    it('reads the read replica settings only with DATABASE_READ_URL, and refuses a lag bound at or below the check interval', () => {
      expect(loadConfig({}).databaseRead).to.equal(undefined);
      expect(loadConfig({ DATABASE_READ_URL: 'postgres://reader@127.0.0.1:55433/rewards' }).databaseRead).to.deep.equal(
        {
          url: 'postgres://reader@127.0.0.1:55433/rewards',
          maxLagMs: 5000,
          checkIntervalMs: 1000,
        },
      );
      expect(
        loadConfig({
          DATABASE_READ_URL: 'postgres://127.0.0.1:55433/rewards',
          DATABASE_READ_MAX_LAG_MS: '800',
          DATABASE_READ_LAG_CHECK_MS: '200',
        }).databaseRead,
      ).to.include({ maxLagMs: 800, checkIntervalMs: 200 });
      expect(
        configError({ DATABASE_READ_URL: 'postgres://127.0.0.1:55433/rewards', DATABASE_READ_MAX_LAG_MS: '1000' })
          .message,
      ).to.match(/DATABASE_READ_MAX_LAG_MS \(1000\) must be above DATABASE_READ_LAG_CHECK_MS \(1000\)/);
      expect(configError({ DATABASE_READ_URL: 'mysql://x' }).message).to.contain('DATABASE_READ_URL');
      expect(configError({ DATABASE_READ_MAX_LAG_MS: '10' }).message).to.contain('DATABASE_READ_MAX_LAG_MS');
    });

    it('reads the config store limits and refuses them out of bounds, naming the variable', () => {
      expect(
        loadConfig({
          CONFIG_STORE_RATE_LIMIT: '5',
          CONFIG_STORE_MAX_PENDING: '20',
          CONFIG_STORE_UNASSOCIATED_TTL_DAYS: '2',
        }).configStore,
      ).to.deep.equal({ perMinute: 5, maxPendingPerCaller: 20, unassociatedTtlDays: 2 });
      for (const [name, value] of [
        ['CONFIG_STORE_UNASSOCIATED_TTL_DAYS', '0'],
        ['CONFIG_STORE_UNASSOCIATED_TTL_DAYS', '3651'],
        ['CONFIG_STORE_UNASSOCIATED_TTL_DAYS', 'week'],
        ['CONFIG_STORE_RATE_LIMIT', '0'],
        ['CONFIG_STORE_MAX_PENDING', '-1'],
      ] as const)
        expect(configError({ [name]: value }).message, `${name}=${value}`).to.include(name);
    });

    it('defaults to the two devnet chains 31337 and 31338 with the deterministic deploy addresses', () => {
      const { chains } = loadConfig({});
      expect(chains.map((c) => c.id)).to.deep.equal([31337, 31338]);
      expect(chains.map((c) => c.rpcUrl)).to.deep.equal(['http://127.0.0.1:8545', 'http://127.0.0.1:8546']);
      for (const c of chains) {
        // Hardhat account #0 at nonce 0 and 1.
        expect(c.distributor).to.equal('0x5FbDB2315678afecb367f032d93F642f64180aa3');
        expect(c.distributionCreator).to.equal('0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512');
      }
    });

    it('gives development a random 32-byte JWT secret when none is set', () => {
      const a = loadConfig({}).jwtSecret;
      expect(a).to.match(/^[0-9a-f]{64}$/);
      expect(loadConfig({}).jwtSecret).not.to.equal(a);
    });

    it('turns GraphQL introspection and GraphiQL on in development, off by default in production, as GRAPHQL_EXPLORER says otherwise', () => {
      expect(loadConfig({}).graphqlExplorer).to.equal(true);
      expect(loadConfig({ NODE_ENV: 'production', JWT_SECRET: SECRET }).graphqlExplorer).to.equal(false);
      expect(
        loadConfig({ NODE_ENV: 'production', JWT_SECRET: SECRET, GRAPHQL_EXPLORER: 'true' }).graphqlExplorer,
      ).to.equal(true);
      expect(loadConfig({ GRAPHQL_EXPLORER: 'false' }).graphqlExplorer).to.equal(false);
      expect(() => loadConfig({ GRAPHQL_EXPLORER: 'maybe' })).to.throw(ConfigError, /GRAPHQL_EXPLORER/);
    });

    it('returns a frozen config', () => {
      expect(Object.isFrozen(loadConfig({}))).to.equal(true);
    });

    it('coerces numeric strings to numbers', () => {
      const config = loadConfig({
        PORT: '8080',
        ES_REQUEST_TIMEOUT_MS: '2500',
        RPC_RETRIES: '0',
        INDEXER_MAX_LOG_RANGE: '100',
      });
      expect(config.port).to.equal(8080);
      expect(config.esRequestTimeoutMs).to.equal(2500);
      expect(config.indexer.rpcRetries).to.equal(0);
      expect(config.indexer.maxLogRange).to.equal(100);
    });

    it('throws a ConfigError naming PORT for PORT=abc', () => {
      expect(configError({ PORT: 'abc' }).message).to.match(/\bPORT\b/);
    });

    it('throws a ConfigError naming PORT when it is out of range', () => {
      expect(configError({ PORT: '70000' }).message).to.match(/\bPORT\b/);
    });

    it('reads RATE_LIMITS and throws naming it for a limit of 0 or past 10⁹ per second', () => {
      expect(loadConfig({ RATE_LIMITS: '5,10,20,1000000000' }).rateLimits).to.deep.equal({
        anonymous: 5,
        tiers: [10, 20, 1_000_000_000],
      });
      expect(configError({ RATE_LIMITS: '0,10,20,30' }).message).to.match(/\bRATE_LIMITS\b/);
      expect(configError({ RATE_LIMITS: '5,10,20,1000000001' }).message).to.match(/\bRATE_LIMITS\b/);
    });

    it('reads TRUSTED_PROXIES as a hop count or addresses (unset: none) and throws naming it otherwise', () => {
      expect(loadConfig({}).trustedProxies).to.equal(undefined);
      expect(loadConfig({ TRUSTED_PROXIES: '2' }).trustedProxies).to.deep.equal({ hops: 2 });
      expect(loadConfig({ TRUSTED_PROXIES: '10.0.0.1,::1' }).trustedProxies).to.deep.equal({
        addresses: ['10.0.0.1', '::1'],
      });
      expect(configError({ TRUSTED_PROXIES: '0' }).message).to.match(/\bTRUSTED_PROXIES\b/);
      expect(configError({ TRUSTED_PROXIES: '10.0.0.1,proxy.local' }).message).to.match(/\bTRUSTED_PROXIES\b/);
    });

    it('derives the sign-in domain, URI and chain from PUBLIC_BASE_URL and SIGN_IN_CHAIN_ID, defaulting to the quick start', () => {
      expect(loadConfig({}).signIn).to.deep.equal({
        domain: '127.0.0.1:3000',
        uri: 'http://127.0.0.1:3000',
        chainId: 1,
      });
      expect(
        loadConfig({ PUBLIC_BASE_URL: 'https://rewards.example/', SIGN_IN_CHAIN_ID: '8453' }).signIn,
      ).to.deep.equal({ domain: 'rewards.example', uri: 'https://rewards.example', chainId: 8453 });
      expect(configError({ PUBLIC_BASE_URL: 'https://rewards.example/api' }).message).to.match(/\bPUBLIC_BASE_URL\b/);
    });

    it('reads several Elasticsearch nodes and the index shape, refusing a bad node or bound by name', () => {
      expect(loadConfig({})).to.deep.include({
        esUrl: 'http://127.0.0.1:59200',
        esIndexShape: { shards: 1, replicas: 0 },
        esSniffIntervalMs: 0,
      });
      const cluster = loadConfig({
        ES_URL: ' http://127.0.0.1:59201, http://127.0.0.1:59202,https://es-3.internal:9200 ',
        ES_SHARDS: '3',
        ES_REPLICAS: '1',
        ES_SNIFF_INTERVAL_MS: '60000',
      });
      expect(cluster).to.deep.include({
        esUrl: 'http://127.0.0.1:59201,http://127.0.0.1:59202,https://es-3.internal:9200',
        esIndexShape: { shards: 3, replicas: 1 },
        esSniffIntervalMs: 60000,
      });
      expect(configError({ ES_URL: 'http://127.0.0.1:59201,127.0.0.1:59202' }).message).to.match(/\bES_URL\b/);
      expect(configError({ ES_URL: 'http://127.0.0.1:59201,' }).message).to.match(/\bES_URL\b/);
      expect(configError({ ES_SHARDS: '0' }).message).to.match(/\bES_SHARDS\b/);
      expect(configError({ ES_REPLICAS: '-1' }).message).to.match(/\bES_REPLICAS\b/);
    });

    it('throws a ConfigError naming NODE_ENV for NODE_ENV=staging', () => {
      expect(configError({ NODE_ENV: 'staging' }).message).to.match(/\bNODE_ENV\b/);
    });

    it('reports every bad variable at once', () => {
      const { message } = configError({ PORT: 'abc', LOG_LEVEL: 'loud', ES_URL: 'elastic:9200' });
      expect(message)
        .to.match(/\bPORT\b/)
        .and.match(/\bLOG_LEVEL\b/)
        .and.match(/\bES_URL\b/);
    });

    it('counts empty strings as unset', () => {
      const config = loadConfig({ NODE_ENV: '', PORT: '', HOST: '', JWT_SECRET: '', CHAINS: '', CHAINS_FILE: '' });
      expect(config).to.include({ env: 'development', port: 3000, host: '127.0.0.1' });
      expect(config.jwtSecret).to.have.length(64);
      expect(config.chains.map((c) => c.id)).to.deep.equal([31337, 31338]);
    });

    it('throws naming JWT_SECRET in production without one, also when it is empty', () => {
      expect(configError({ NODE_ENV: 'production' }).message).to.match(/JWT_SECRET/);
      expect(configError({ NODE_ENV: 'production', JWT_SECRET: '' }).message).to.match(/JWT_SECRET/);
    });

    it('throws naming JWT_SECRET when it is shorter than 32 characters', () => {
      expect(configError({ NODE_ENV: 'production', JWT_SECRET: 'short' }).message).to.match(/JWT_SECRET/);
    });

    it('uses the given JWT_SECRET in production', () => {
      expect(loadConfig({ NODE_ENV: 'production', JWT_SECRET: SECRET })).to.include({
        env: 'production',
        jwtSecret: SECRET,
      });
    });

    describe('CHAINS', () => {
      it('reads the chains from JSON and applies the per-chain defaults', () => {
        const { chains } = loadConfig({ CHAINS: JSON.stringify([chain(1)]) });
        expect(chains).to.deep.equal([
          {
            ...chain(1),
            icon: '',
            startBlock: 0,
            confirmations: 0,
            test: false,
            explorers: [],
            nativeToken: { name: 'Ether', symbol: 'ETH', decimals: 18 },
            priceFeeds: {},
            tokens: [],
          },
        ]);
      });

      it('throws naming CHAINS when it is not JSON', () => {
        expect(configError({ CHAINS: '[{"id": 1,' }).message).to.match(/CHAINS is not readable JSON/);
      });

      it('throws naming the field of a bad address', () => {
        const { message } = configError({ CHAINS: JSON.stringify([chain(1, { distributor: '0x1234' })]) });
        expect(message)
          .to.match(/CHAINS is invalid/)
          .and.match(/\/0\/distributor/);
      });

      it('throws naming a missing required field', () => {
        const { rpcUrl: _omitted, ...noRpc } = chain(1);
        expect(configError({ CHAINS: JSON.stringify([noRpc]) }).message)
          .to.match(/CHAINS is invalid/)
          .and.match(/rpcUrl/);
      });

      it('throws naming the chain id listed twice', () => {
        expect(configError({ CHAINS: JSON.stringify([chain(1), chain(1, { name: 'Again' })]) }).message).to.match(
          /CHAINS lists chain id 1 twice/,
        );
      });

      it('throws for an empty list', () => {
        expect(configError({ CHAINS: '[]' }).message).to.match(/CHAINS is invalid/);
      });

      it("refuses a block explorer that is the chain's RPC URL or a path under it (#44: links to a JSON-RPC parse error)", () => {
        const rpcUrl = chain(1).rpcUrl;
        for (const url of [rpcUrl, `${rpcUrl}/`, `${rpcUrl.replace(/\/+$/, '')}/explorer`]) {
          const explorers = [{ type: 'BLOCKSCOUT', url }];
          expect(configError({ CHAINS: JSON.stringify([chain(1, { explorers })]) }).message, url)
            .to.match(/CHAINS \/0\/explorers\/0\/url/)
            .and.match(/RPC URL/);
        }
        const explorers = [{ type: 'ETHERSCAN', url: 'https://etherscan.io' }];
        expect(loadConfig({ CHAINS: JSON.stringify([chain(1, { explorers })]) }).chains[0]!.explorers).to.deep.equal(
          explorers,
        );
      });

      it('the built-in devnet chains have no block explorer (their RPC port serves no pages)', () => {
        for (const c of loadConfig({}).chains) expect(c.explorers, `chain ${c.id}`).to.deep.equal([]);
      });
    });

    describe('CHAINS_FILE', () => {
      let dir: string;
      beforeEach(() => {
        dir = mkdtempSync(join(tmpdir(), 'config-test-'));
      });
      afterEach(() => {
        rmSync(dir, { recursive: true, force: true });
      });

      it('reads the chains from the file', () => {
        const file = join(dir, 'chains.json');
        writeFileSync(file, JSON.stringify([chain(10), chain(8453)]));
        expect(loadConfig({ CHAINS_FILE: file }).chains.map((c) => c.id)).to.deep.equal([10, 8453]);
      });

      it('prefers CHAINS over CHAINS_FILE', () => {
        const file = join(dir, 'chains.json');
        writeFileSync(file, JSON.stringify([chain(10)]));
        expect(
          loadConfig({ CHAINS: JSON.stringify([chain(5)]), CHAINS_FILE: file }).chains.map((c) => c.id),
        ).to.deep.equal([5]);
      });

      it('throws naming CHAINS_FILE when the file is missing or not JSON', () => {
        expect(configError({ CHAINS_FILE: join(dir, 'missing.json') }).message).to.match(
          /CHAINS_FILE is not readable JSON/,
        );
        const file = join(dir, 'bad.json');
        writeFileSync(file, 'not json');
        expect(configError({ CHAINS_FILE: file }).message).to.match(/CHAINS_FILE is not readable JSON/);
      });

      it('throws naming CHAINS_FILE when its content is invalid', () => {
        const file = join(dir, 'chains.json');
        writeFileSync(file, JSON.stringify([chain(1, { rpcUrl: 'ftp://node' })]));
        expect(configError({ CHAINS_FILE: file }).message)
          .to.match(/CHAINS_FILE is invalid/)
          .and.match(/rpcUrl/);
      });
    });
  });
});
