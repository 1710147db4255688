import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { Ajv, type JSONSchemaType } from 'ajv';
import { ConfigError } from './errors.js';
import { devnetChains } from './devnetChains.js';
import { type WebhooksConfig, webhooksOf } from './webhooksConfig.js';
import { parseEsNodes } from './esNodes.js';
import { environmentOf } from './envFile.js';

export type { ChainConfig, ExplorerConfig, TokenFlagsConfig } from './chainConfig.js';
import type { ChainConfig } from './chainConfig.js';

export type Config = {
  env: 'development' | 'test' | 'production';
  host: string;
  port: number;
  /**
   * Where clients reach the API (PUBLIC_BASE_URL), never taken from a request's Host header: the
   * Sign-In with Ethereum messages name its host as `domain` and its origin as `uri`, on `chainId`.
   */
  signIn: { domain: string; uri: string; chainId: number };
  /** Reverse proxies in front of the API (TRUSTED_PROXIES): how many hops, or which addresses; absent = forwarded headers ignored. */
  trustedProxies?: { hops: number } | { addresses: string[] };
  logLevel: string;
  databaseUrl: string;
  /**
   * A streaming replica of DATABASE_URL for the API's lag-tolerant reads (DATABASE_READ_URL; absent:
   * every read goes to the primary), the most lag such a read may see (DATABASE_READ_MAX_LAG_MS) and
   * how often the API measures it (DATABASE_READ_LAG_CHECK_MS).
   */
  databaseRead?: { url: string; maxLagMs: number; checkIntervalMs: number };
  /** Elasticsearch node URLs (ES_URL), comma-separated when several; createEsClient splits them. */
  esUrl: string;
  esIndexPrefix: string;
  esRequestTimeoutMs: number;
  /** Shards and replicas of every index es:setup and a reindex create (ES_SHARDS, ES_REPLICAS). */
  esIndexShape: { shards: number; replicas: number };
  /** Re-discover the cluster's nodes this often and after a node fault (ES_SNIFF_INTERVAL_MS); 0: the configured list only. */
  esSniffIntervalMs: number;
  jwtSecret: string;
  /** OpenID Connect identity provider (authorization code + PKCE); absent when IDP_ISSUER_URL is unset. */
  idp?: { issuerUrl: string; clientId: string; clientSecret?: string; redirectUri: string; successRedirect?: string };
  /** The back-office credential (header `authorization`); unset = no caller is back office. */
  backOfficeToken?: string;
  chains: ChainConfig[];
  indexer: {
    maxLogRange: number;
    maxBlockBatch: number;
    rpcTimeoutMs: number;
    rpcRetries: number;
    publishBatch: number;
    /**
     * Gas of each read in the jobs' multicalls (INDEXER_READ_GAS: a TVL read, a token's name; each read
     * has its own limit: domain/boundedReads.ts) and the most any of the jobs' eth_calls may carry
     * (INDEXER_CALL_GAS: internal/rpc.ts caps every one). Targets come from campaigns anyone creates.
     */
    readGas: number;
    callGas: number;
  };
  /**
   * Chain reads a request causes (api/chain/readChain.ts, issue #43 F1): the gas of one view read
   * (CHAIN_READ_GAS: balanceOf, allowance, name, an isValidSignature, a view of our contracts), the gas
   * of a call that deploys or simulates (CHAIN_CALL_GAS: an EIP-6492 sign-in check, each campaign of
   * a creation simulation), one deadline per request (CHAIN_READ_DEADLINE_MS), and per chain the
   * requests reading at once (CHAIN_READ_CONCURRENCY) and waiting for a turn (CHAIN_READ_QUEUE), and the
   * gas all eth_calls of one request's read may carry together (CHAIN_REQUEST_GAS).
   */
  chainReads: {
    readGas: number;
    callGas: number;
    requestGas: number;
    deadlineMs: number;
    concurrency: number;
    queue: number;
  };
  prices: { apiUrl?: string; apiTimeoutMs: number; maxAgeSeconds: number };
  /**
   * Where reward trees are published, keyed by root: an http(s) URL template or a directory path;
   * and the largest document read (REWARD_TREE_MAX_BYTES; larger ones are refused as malformed).
   */
  rewardTrees: { source?: string; maxBytes?: number };
  /** Requests per second per caller: without a key, then per API key tier 0, 1, 2 (unset: the middleware's defaults). */
  rateLimits?: { anonymous: number; tiers: number[] };
  /**
   * Bounds per client address (api/middleware/clientAddress.ts clientKey: an IPv4 address, an IPv6 /64)
   * that hold whatever API keys or wallets the address uses, since both are free to make (#43 F5):
   * event streams one address holds in one API process (EVENTS_STREAMS_PER_ADDRESS) and streams one
   * process serves in all (EVENTS_STREAMS_MAX); requests per second of one address across all its API
   * keys, each key keeping its own limit under it (RATE_LIMIT_PER_ADDRESS; absent: the highest limit of
   * RATE_LIMITS); API keys created from one address in 24 hours (API_KEYS_PER_ADDRESS_PER_DAY).
   */
  clientLimits: {
    streamsPerAddress: number;
    streamsPerProcess: number;
    requestsPerAddress?: number;
    keysPerAddressPerDay: number;
  };
  /** GET /metrics requires `authorization: Bearer <METRICS_TOKEN>` (or the back-office token) when set; unset: public. */
  metricsToken?: string;
  /** Jobs this process's scheduler runs (SCHEDULER_JOBS); absent: every job. */
  schedulerJobs?: string[];
  /** Chains whose work units this process's scheduler runs (SCHEDULER_CHAINS, fixed placement); absent: every chain. */
  schedulerChains?: number[];
  /** Work units one scheduler process runs at once (SCHEDULER_CONCURRENCY). */
  schedulerConcurrency: number;
  /**
   * Follow mode (FOLLOW_POLL_MS): each chain's head is polled this often and a new block runs the
   * chain's units at once (blocks, then campaigns, claims and roots), crons staying the safety net; 0: off.
   */
  followPollMs: number;
  /** How long the retention job keeps job runs (JOB_RUNS_RETENTION_DAYS) and events (EVENTS_RETENTION_DAYS). */
  retention: { jobRunsDays: number; eventsDays: number };
  /**
   * GET /v4/events as a stream: bytes a client may leave unread in its socket buffer before it is
   * dropped once it stays above them for EVENTS_STREAM_STALL_MS, and the heartbeat interval
   * (EVENTS_HEARTBEAT_MS).
   */
  eventStream: { maxBufferBytes: number; stallMs: number; heartbeatMs: number };
  /** Webhooks (README "Webhooks"; issue #32): limits, outbound guard and delivery schedule. */
  webhooks: WebhooksConfig;
  /**
   * Events decided by thresholds: an opportunity's APR, TVL or daily rewards moving by more than
   * EVENTS_FIGURE_THRESHOLD_BPS (basis points) from the last announced figure; and the most
   * `rewards.changed` events one new live root may announce (EVENTS_REWARDS_CHANGED_MAX; above it
   * its `root.live` says so and names the count instead).
   */
  eventAnnouncements: { figureThresholdBps: number; rewardsChangedMax: number };
  /**
   * POST /v4/config/store, which anyone may call (issue #29 L2): stores per caller per minute
   * (CONFIG_STORE_RATE_LIMIT), configurations no campaign uses yet that one caller may hold
   * (CONFIG_STORE_MAX_PENDING), and the days such a configuration is kept before the retention job
   * deletes it (CONFIG_STORE_UNASSOCIATED_TTL_DAYS).
   */
  configStore: { perMinute: number; maxPendingPerCaller: number; unassociatedTtlDays: number };
  /** SOFR spread ratchet: the benchmark-rate source (daily published JSON). */
  ratchet: { benchmarkRateUrl?: string };
  /** GraphQL introspection and the GraphiQL explorer page (GRAPHQL_EXPLORER; on unless NODE_ENV=production). */
  graphqlExplorer: boolean;
  /** Cron overrides from JOB_<NAME>_CRON, keyed by job name (lower-case, `_` read as `-`: JOB_CAMPAIGN_FEES_CRON); jobs carry their defaults. */
  schedules: Record<string, string>;
  /** Browser origins (`scheme://host[:port]`) allowed to call credentialed routes (CORS_ORIGINS); public reads answer any origin. */
  corsOrigins: string[];
};

type Env = Record<string, string | undefined>;

const ADDRESS = '^0x[a-fA-F0-9]{40}$';

const chainsSchema: JSONSchemaType<ChainConfig[]> = {
  type: 'array',
  minItems: 1,
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'name', 'rpcUrl', 'distributionCreator', 'distributor'],
    properties: {
      id: { type: 'integer', minimum: 1 },
      name: { type: 'string', minLength: 1 },
      icon: { type: 'string', default: '' },
      rpcUrl: { type: 'string', pattern: '^(https?|wss?)://' },
      distributionCreator: { type: 'string', pattern: ADDRESS } as never,
      distributor: { type: 'string', pattern: ADDRESS } as never,
      startBlock: { type: 'integer', minimum: 0, default: 0 },
      confirmations: { type: 'integer', minimum: 0, maximum: 1000, default: 0 },
      test: { type: 'boolean', default: false },
      explorers: {
        type: 'array',
        default: [],
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['type', 'url'],
          properties: {
            type: { type: 'string', enum: ['ETHERSCAN', 'BLOCKSCOUT', 'SOLSCAN'] },
            url: { type: 'string', pattern: '^https?://' },
          },
        },
      },
      nativeToken: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'symbol', 'decimals'],
        properties: {
          name: { type: 'string' },
          symbol: { type: 'string' },
          decimals: { type: 'integer', minimum: 0, maximum: 36 },
        },
        default: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      },
      priceFeeds: {
        type: 'object',
        required: [],
        propertyNames: { pattern: ADDRESS },
        additionalProperties: { type: 'string', pattern: ADDRESS },
        default: {},
      } as never,
      priceApiChain: { type: 'string', minLength: 1, nullable: true } as never,
      morphoBlue: { type: 'string', pattern: ADDRESS, nullable: true } as never,
      uniswapV4PoolManager: { type: 'string', pattern: ADDRESS, nullable: true } as never,
      tokens: {
        type: 'array',
        default: [],
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['address'],
          properties: {
            address: { type: 'string', pattern: ADDRESS },
            type: { type: 'string', enum: ['TOKEN', 'PRETGE', 'POINT'], nullable: true },
            verified: { type: 'boolean', nullable: true },
            isTest: { type: 'boolean', nullable: true },
            stablecoin: { type: 'boolean', nullable: true },
            icon: { type: 'string', nullable: true },
            displaySymbol: { type: 'string', nullable: true },
          },
        },
      } as never,
    },
  },
};

/** Every variable we read, with its bounds and default; documented one by one in .env.example. */
const envSchema = {
  type: 'object',
  additionalProperties: true,
  required: ['NODE_ENV', 'HOST', 'PORT', 'DATABASE_URL', 'ES_URL'],
  properties: {
    NODE_ENV: { type: 'string', enum: ['development', 'test', 'production'], default: 'development' },
    HOST: { type: 'string', default: '127.0.0.1' },
    PORT: { type: 'integer', minimum: 0, maximum: 65535, default: 3000 },
    PUBLIC_BASE_URL: { type: 'string', pattern: '^https?://[^/?#\\s]+/?$', default: 'http://127.0.0.1:3000' },
    SIGN_IN_CHAIN_ID: { type: 'integer', minimum: 1, default: 1 },
    TRUSTED_PROXIES: { type: 'string', pattern: '^\\S+$' },
    LOG_LEVEL: {
      type: 'string',
      enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
      default: 'info',
    },
    DATABASE_URL: {
      type: 'string',
      pattern: '^postgres(ql)?://',
      default: 'postgres://postgres@127.0.0.1:55432/rewards',
    },
    DATABASE_READ_URL: { type: 'string', pattern: '^postgres(ql)?://' },
    DATABASE_READ_MAX_LAG_MS: { type: 'integer', minimum: 100, maximum: 3600000, default: 5000 },
    DATABASE_READ_LAG_CHECK_MS: { type: 'integer', minimum: 50, maximum: 60000, default: 1000 },
    ES_URL: {
      type: 'string',
      pattern: '^\\s*https?://[^,\\s]+(\\s*,\\s*https?://[^,\\s]+)*\\s*$',
      default: 'http://127.0.0.1:59200',
    },
    ES_INDEX_PREFIX: { type: 'string', pattern: '^[a-z0-9][a-z0-9_-]{0,40}$', default: 'rewards' },
    ES_REQUEST_TIMEOUT_MS: { type: 'integer', minimum: 100, maximum: 120000, default: 5000 },
    ES_SHARDS: { type: 'integer', minimum: 1, maximum: 1024, default: 1 },
    ES_REPLICAS: { type: 'integer', minimum: 0, maximum: 32, default: 0 },
    ES_SNIFF_INTERVAL_MS: { type: 'integer', minimum: 0, maximum: 86400000, default: 0 },
    JWT_SECRET: { type: 'string', minLength: 32 },
    IDP_ISSUER_URL: { type: 'string', pattern: '^https?://' },
    IDP_CLIENT_ID: { type: 'string', minLength: 1 },
    IDP_CLIENT_SECRET: { type: 'string', minLength: 1 },
    IDP_REDIRECT_URI: { type: 'string', pattern: '^https?://' },
    IDP_SUCCESS_REDIRECT: { type: 'string', pattern: '^(https?://|/)' },
    BACK_OFFICE_TOKEN: { type: 'string', minLength: 32, pattern: '^\\S+$' },
    CHAINS: { type: 'string' },
    CHAINS_FILE: { type: 'string' },
    INDEXER_MAX_LOG_RANGE: { type: 'integer', minimum: 1, maximum: 1000000, default: 5000 },
    INDEXER_MAX_BLOCK_BATCH: { type: 'integer', minimum: 1, maximum: 10000, default: 500 },
    INDEXER_PUBLISH_BATCH: { type: 'integer', minimum: 1, maximum: 10000, default: 500 },
    RPC_TIMEOUT_MS: { type: 'integer', minimum: 100, maximum: 120000, default: 10000 },
    RPC_RETRIES: { type: 'integer', minimum: 0, maximum: 20, default: 3 },
    INDEXER_READ_GAS: { type: 'integer', minimum: 30000, maximum: 10000000, default: 300000 },
    INDEXER_CALL_GAS: { type: 'integer', minimum: 2000000, maximum: 50000000, default: 10000000 },
    // 21,000 is the intrinsic gas of any call: a budget below it answers nothing.
    CHAIN_READ_GAS: { type: 'integer', minimum: 30000, maximum: 30000000, default: 100000 },
    CHAIN_CALL_GAS: { type: 'integer', minimum: 100000, maximum: 30000000, default: 1000000 },
    CHAIN_REQUEST_GAS: { type: 'integer', minimum: 1000000, maximum: 1000000000, default: 20000000 },
    CHAIN_READ_DEADLINE_MS: { type: 'integer', minimum: 100, maximum: 120000, default: 5000 },
    CHAIN_READ_CONCURRENCY: { type: 'integer', minimum: 1, maximum: 256, default: 8 },
    CHAIN_READ_QUEUE: { type: 'integer', minimum: 0, maximum: 10000, default: 32 },
    PRICE_API_URL: { type: 'string', pattern: '^https?://' },
    PRICE_API_TIMEOUT_MS: { type: 'integer', minimum: 100, maximum: 120000, default: 5000 },
    PRICE_MAX_AGE_SECONDS: { type: 'integer', minimum: 1, maximum: 31536000, default: 3600 },
    REWARD_TREE_SOURCE: { type: 'string', minLength: 1 },
    // 4 GiB: ten times a million-leaf tree with a breakdown a leaf (~350 MB).
    REWARD_TREE_MAX_BYTES: { type: 'integer', minimum: 1024, maximum: 1099511627776, default: 4294967296 },
    BENCHMARK_RATE_URL: { type: 'string', pattern: '^https?://' },
    RATE_LIMITS: { type: 'string', pattern: '^\\d+(,\\d+){3}$' },
    RATE_LIMIT_PER_ADDRESS: { type: 'integer', minimum: 1, maximum: 1000000000 },
    EVENTS_STREAMS_PER_ADDRESS: { type: 'integer', minimum: 1, maximum: 1000000, default: 20 },
    EVENTS_STREAMS_MAX: { type: 'integer', minimum: 1, maximum: 1000000, default: 500 },
    API_KEYS_PER_ADDRESS_PER_DAY: { type: 'integer', minimum: 1, maximum: 1000000, default: 20 },
    METRICS_TOKEN: { type: 'string', minLength: 32, pattern: '^\\S+$' },
    CORS_ORIGINS: { type: 'string' },
    JOB_RUNS_RETENTION_DAYS: { type: 'integer', minimum: 1, maximum: 3650, default: 30 },
    EVENTS_RETENTION_DAYS: { type: 'integer', minimum: 1, maximum: 3650, default: 7 },
    EVENTS_STREAM_MAX_BUFFER_BYTES: { type: 'integer', minimum: 1024, maximum: 1073741824, default: 1048576 },
    EVENTS_STREAM_STALL_MS: { type: 'integer', minimum: 100, maximum: 600000, default: 10000 },
    EVENTS_HEARTBEAT_MS: { type: 'integer', minimum: 100, maximum: 600000, default: 15000 },
    WEBHOOKS_MAX_PER_OWNER: { type: 'integer', minimum: 1, maximum: 10000, default: 20 },
    WEBHOOKS_ALLOW_PRIVATE: { type: 'string' },
    WEBHOOKS_TIMEOUT_MS: { type: 'integer', minimum: 100, maximum: 120000, default: 10000 },
    WEBHOOKS_RETRY_BASE_MS: { type: 'integer', minimum: 10, maximum: 86400000, default: 10000 },
    WEBHOOKS_RETRY_MAX_MS: { type: 'integer', minimum: 10, maximum: 86400000, default: 3600000 },
    WEBHOOKS_DISABLE_AFTER_FAILURES: { type: 'integer', minimum: 1, maximum: 10000, default: 45 },
    WEBHOOKS_CONCURRENCY: { type: 'integer', minimum: 1, maximum: 64, default: 4 },
    WEBHOOK_DELIVERIES_RETENTION_DAYS: { type: 'integer', minimum: 1, maximum: 3650, default: 7 },
    EVENTS_FIGURE_THRESHOLD_BPS: { type: 'integer', minimum: 1, maximum: 1000000, default: 500 },
    EVENTS_REWARDS_CHANGED_MAX: { type: 'integer', minimum: 0, maximum: 100000000, default: 100000 },
    CONFIG_STORE_UNASSOCIATED_TTL_DAYS: { type: 'integer', minimum: 1, maximum: 3650, default: 7 },
    CONFIG_STORE_RATE_LIMIT: { type: 'integer', minimum: 1, maximum: 100000, default: 30 },
    CONFIG_STORE_MAX_PENDING: { type: 'integer', minimum: 1, maximum: 10000000, default: 1000 },
    SCHEDULER_JOBS: { type: 'string', pattern: '^[a-z][a-z-]*(,[a-z][a-z-]*)*$' },
    SCHEDULER_CHAINS: { type: 'string', pattern: '^\\d+(,\\d+)*$' },
    SCHEDULER_CONCURRENCY: { type: 'integer', minimum: 1, maximum: 64, default: 4 },
    FOLLOW_POLL_MS: { type: 'integer', minimum: 0, maximum: 60000, default: 500 },
    GRAPHQL_EXPLORER: { type: 'boolean' },
  },
} as const;

/**
 * Pure: whether `name` is a variable the configuration reads (declared in envSchema, CHAINS, or a
 * JOB_<NAME>_CRON override): what the quick start hands on to the CLI through its env file.
 */
export function isConfigVariable(name: string): boolean {
  return name in envSchema.properties || name === 'CHAINS' || /^JOB_[A-Z0-9_]+_CRON$/.test(name);
}

const ajv = new Ajv({ coerceTypes: true, useDefaults: true, allErrors: true, allowUnionTypes: true });
const validateEnv = ajv.compile(envSchema);
const validateChains = ajv.compile(chainsSchema);

/**
 * Reads and validates the configuration once at startup. A bad or missing variable
 * throws a ConfigError naming it; secrets have no default outside development and test.
 * @param env by default `process.env` over the quick start's env file (internal/envFile.ts); never mutated.
 * @returns a frozen Config.
 */
export function loadConfig(env: Env = environmentOf(process.env)): Config {
  // An empty variable (e.g. `JWT_SECRET=` copied from .env.example) counts as unset.
  const raw: Record<string, unknown> = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  if (!validateEnv(raw)) {
    const problems = (validateEnv.errors ?? []).map(
      (e) => `${e.instancePath.slice(1) || e.params['missingProperty']} ${e.message}`,
    );
    throw new ConfigError(`invalid environment: ${problems.join('; ')}`, { details: { problems } });
  }
  // After validation with coercion and defaults every declared variable has its schema type.
  const v = raw as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  const nodeEnv = v['NODE_ENV'] as Config['env'];
  // No secret has a default: production refuses to start without one; development and test get a
  // random one per process (sessions then last as long as the process; the quick start persists one).
  if (nodeEnv === 'production' && !env['JWT_SECRET'])
    throw new ConfigError('JWT_SECRET is required in production (at least 32 characters)');
  const jwtSecret = env['JWT_SECRET'] || randomBytes(32).toString('hex');
  return Object.freeze({
    env: nodeEnv,
    host: v['HOST'],
    port: v['PORT'],
    signIn: signInOf(v['PUBLIC_BASE_URL'], v['SIGN_IN_CHAIN_ID']),
    ...(v['TRUSTED_PROXIES'] ? { trustedProxies: parseTrustedProxies(String(v['TRUSTED_PROXIES'])) } : {}),
    logLevel: v['LOG_LEVEL'],
    databaseUrl: v['DATABASE_URL'],
    ...loadDatabaseRead(v),
    esUrl: parseEsNodes(v['ES_URL']).join(','),
    esIndexPrefix: v['ES_INDEX_PREFIX'],
    esRequestTimeoutMs: v['ES_REQUEST_TIMEOUT_MS'],
    esIndexShape: { shards: v['ES_SHARDS'], replicas: v['ES_REPLICAS'] },
    esSniffIntervalMs: v['ES_SNIFF_INTERVAL_MS'],
    jwtSecret,
    ...(loadIdp(v) ?? {}),
    ...(v['BACK_OFFICE_TOKEN'] ? { backOfficeToken: v['BACK_OFFICE_TOKEN'] } : {}),
    chains: loadChains(env),
    indexer: {
      maxLogRange: v['INDEXER_MAX_LOG_RANGE'],
      maxBlockBatch: v['INDEXER_MAX_BLOCK_BATCH'],
      rpcTimeoutMs: v['RPC_TIMEOUT_MS'],
      rpcRetries: v['RPC_RETRIES'],
      publishBatch: v['INDEXER_PUBLISH_BATCH'],
      readGas: v['INDEXER_READ_GAS'],
      callGas: v['INDEXER_CALL_GAS'],
    },
    chainReads: {
      readGas: v['CHAIN_READ_GAS'],
      callGas: v['CHAIN_CALL_GAS'],
      requestGas: v['CHAIN_REQUEST_GAS'],
      deadlineMs: v['CHAIN_READ_DEADLINE_MS'],
      concurrency: v['CHAIN_READ_CONCURRENCY'],
      queue: v['CHAIN_READ_QUEUE'],
    },
    prices: {
      apiUrl: v['PRICE_API_URL'],
      apiTimeoutMs: v['PRICE_API_TIMEOUT_MS'],
      maxAgeSeconds: v['PRICE_MAX_AGE_SECONDS'],
    },
    rewardTrees: { source: v['REWARD_TREE_SOURCE'], maxBytes: v['REWARD_TREE_MAX_BYTES'] },
    retention: { jobRunsDays: v['JOB_RUNS_RETENTION_DAYS'], eventsDays: v['EVENTS_RETENTION_DAYS'] },
    eventStream: {
      maxBufferBytes: v['EVENTS_STREAM_MAX_BUFFER_BYTES'],
      stallMs: v['EVENTS_STREAM_STALL_MS'],
      heartbeatMs: v['EVENTS_HEARTBEAT_MS'],
    },
    webhooks: webhooksOf(v),
    eventAnnouncements: {
      figureThresholdBps: v['EVENTS_FIGURE_THRESHOLD_BPS'],
      rewardsChangedMax: v['EVENTS_REWARDS_CHANGED_MAX'],
    },
    configStore: {
      perMinute: v['CONFIG_STORE_RATE_LIMIT'],
      maxPendingPerCaller: v['CONFIG_STORE_MAX_PENDING'],
      unassociatedTtlDays: v['CONFIG_STORE_UNASSOCIATED_TTL_DAYS'],
    },
    ...(v['SCHEDULER_JOBS'] ? { schedulerJobs: String(v['SCHEDULER_JOBS']).split(',') } : {}),
    ...(v['SCHEDULER_CHAINS'] ? { schedulerChains: String(v['SCHEDULER_CHAINS']).split(',').map(Number) } : {}),
    schedulerConcurrency: v['SCHEDULER_CONCURRENCY'],
    followPollMs: v['FOLLOW_POLL_MS'],
    ratchet: { ...(v['BENCHMARK_RATE_URL'] ? { benchmarkRateUrl: v['BENCHMARK_RATE_URL'] } : {}) },
    ...(v['RATE_LIMITS'] ? { rateLimits: parseRateLimits(v['RATE_LIMITS']) } : {}),
    clientLimits: {
      streamsPerAddress: v['EVENTS_STREAMS_PER_ADDRESS'],
      streamsPerProcess: v['EVENTS_STREAMS_MAX'],
      ...(v['RATE_LIMIT_PER_ADDRESS'] ? { requestsPerAddress: v['RATE_LIMIT_PER_ADDRESS'] } : {}),
      keysPerAddressPerDay: v['API_KEYS_PER_ADDRESS_PER_DAY'],
    },
    ...(v['METRICS_TOKEN'] ? { metricsToken: v['METRICS_TOKEN'] } : {}),
    corsOrigins: parseCorsOrigins(v['CORS_ORIGINS']),
    graphqlExplorer: typeof v['GRAPHQL_EXPLORER'] === 'boolean' ? v['GRAPHQL_EXPLORER'] : nodeEnv !== 'production',
    schedules: Object.fromEntries(
      Object.entries(raw)
        // Job names use hyphens (campaign-fees, benchmark-rate), environment names underscores.
        .map(
          ([key, value]) =>
            [/^JOB_([A-Z0-9_]+)_CRON$/.exec(key)?.[1]?.toLowerCase().replaceAll('_', '-'), String(value)] as const,
        )
        .filter((entry): entry is [string, string] => entry[0] !== undefined),
    ),
  });
}

/** Pure: whether an explorer URL is the RPC URL itself or a path under it (what a devnet's default used to be). */
export function explorerIsRpc(explorerUrl: string, rpcUrl: string): boolean {
  const strip = (u: string) => u.replace(/^wss?:/, (m) => (m === 'wss:' ? 'https:' : 'http:')).replace(/\/+$/, '');
  const [e, r] = [strip(explorerUrl), strip(rpcUrl)];
  return e === r || e.startsWith(`${r}/`);
}

function loadChains(env: Env): ChainConfig[] {
  let source = 'built-in devnet chains';
  let value: unknown = devnetChains();
  try {
    if (env['CHAINS']) {
      source = 'CHAINS';
      value = JSON.parse(env['CHAINS']);
    } else if (env['CHAINS_FILE']) {
      source = 'CHAINS_FILE';
      value = JSON.parse(readFileSync(env['CHAINS_FILE'], 'utf8'));
    }
  } catch (cause) {
    throw new ConfigError(`${source} is not readable JSON`, { cause });
  }
  if (!validateChains(value)) {
    const problems = (validateChains.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`);
    throw new ConfigError(`${source} is invalid: ${problems.join('; ')}`, { details: { problems } });
  }
  for (const [i, c] of value.entries())
    for (const [k, e] of c.explorers.entries())
      if (explorerIsRpc(e.url, c.rpcUrl))
        throw new ConfigError(
          `${source} /${i}/explorers/${k}/url (${e.url}) is the chain's RPC URL or a path under it: an RPC node serves no block explorer pages (leave explorers empty for a chain without one)`,
        );
  const ids = value.map((c) => c.id);
  const twice = ids.find((id, i) => ids.indexOf(id) !== i);
  if (twice !== undefined) throw new ConfigError(`${source} lists chain id ${twice} twice`);
  return value;
}

/**
 * The read replica block, when DATABASE_READ_URL is set. The lag bound must exceed the check interval:
 * a check's age counts as lag (readReplica.ts), so a bound at or below it would never use the replica.
 */
function loadDatabaseRead(v: Record<string, any>): { databaseRead: NonNullable<Config['databaseRead']> } | null {
  if (!v['DATABASE_READ_URL']) return null;
  const maxLagMs = Number(v['DATABASE_READ_MAX_LAG_MS']);
  const checkIntervalMs = Number(v['DATABASE_READ_LAG_CHECK_MS']);
  if (maxLagMs <= checkIntervalMs)
    throw new ConfigError(
      `DATABASE_READ_MAX_LAG_MS (${maxLagMs}) must be above DATABASE_READ_LAG_CHECK_MS (${checkIntervalMs}): the age of the last lag check counts as lag`,
    );
  return { databaseRead: { url: String(v['DATABASE_READ_URL']), maxLagMs, checkIntervalMs } };
}

/** PUBLIC_BASE_URL → the sign-in domain (host[:port]) and URI (origin). */
function signInOf(baseUrl: string, chainId: number): Config['signIn'] {
  const url = new URL(baseUrl);
  return { domain: url.host, uri: url.origin, chainId };
}

/** TRUSTED_PROXIES: a hop count (`1`: one proxy in front of us) or a comma-separated list of proxy IP addresses. */
function parseTrustedProxies(value: string): NonNullable<Config['trustedProxies']> {
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops < 1 || hops > 10)
      throw new ConfigError(`TRUSTED_PROXIES: a hop count must be between 1 and 10 (got ${value})`);
    return { hops };
  }
  const addresses = value
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
  const bad = addresses.filter((a) => isIP(a) === 0);
  if (!addresses.length || bad.length)
    throw new ConfigError(
      `TRUSTED_PROXIES: expected a hop count or IP addresses separated by commas (bad: ${bad.join(', ') || value})`,
    );
  return { addresses };
}

/** Requests per second a limit may allow: the shared window counters are PostgreSQL integers. */
const MAX_RATE_LIMIT = 1_000_000_000;

/** `anonymous,tier0,tier1,tier2` requests per second → the rate-limit table. */
function parseRateLimits(value: string): { anonymous: number; tiers: number[] } {
  const [anonymous, ...tiers] = value.split(',').map(Number);
  if ([anonymous!, ...tiers].some((n) => n < 1 || n > MAX_RATE_LIMIT))
    throw new ConfigError(
      `RATE_LIMITS: every limit must be between 1 and ${MAX_RATE_LIMIT} requests per second (got ${value})`,
    );
  return { anonymous: anonymous!, tiers };
}

/**
 * `CORS_ORIGINS`: comma-separated browser origins, each exactly `http(s)://host[:port]` (no path,
 * no trailing slash, no wildcard: credentialed answers name one origin), lower-cased as browsers send them.
 */
function parseCorsOrigins(value: string | undefined): string[] {
  const items = (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return [
    ...new Set(
      items.map((item) => {
        let origin: string | undefined;
        try {
          const url = new URL(item);
          if ((url.protocol === 'http:' || url.protocol === 'https:') && !url.hostname.includes('*'))
            origin = url.origin;
        } catch {
          /* reported below */
        }
        if (!origin || origin !== item.toLowerCase())
          throw new ConfigError(
            `CORS_ORIGINS: ${JSON.stringify(item)} is not an origin (expected scheme://host[:port], e.g. https://app.example)`,
          );
        return origin;
      }),
    ),
  ];
}

/**
 * The identity provider block: all of IDP_ISSUER_URL, IDP_CLIENT_ID and IDP_REDIRECT_URI, or none
 * (the IdP routes then answer 404). The client secret is optional (public clients use PKCE only).
 */
function loadIdp(v: Record<string, string | undefined>): { idp: NonNullable<Config['idp']> } | null {
  const names = ['IDP_ISSUER_URL', 'IDP_CLIENT_ID', 'IDP_REDIRECT_URI'] as const;
  const set = names.filter((n) => v[n]);
  if (!set.length) return null;
  if (set.length < names.length)
    throw new ConfigError(
      `identity provider: ${names.filter((n) => !v[n]).join(', ')} must be set with ${set.join(', ')}`,
    );
  return {
    idp: {
      issuerUrl: v['IDP_ISSUER_URL']!,
      clientId: v['IDP_CLIENT_ID']!,
      redirectUri: v['IDP_REDIRECT_URI']!,
      ...(v['IDP_CLIENT_SECRET'] ? { clientSecret: v['IDP_CLIENT_SECRET'] } : {}),
      ...(v['IDP_SUCCESS_REDIRECT'] ? { successRedirect: v['IDP_SUCCESS_REDIRECT'] } : {}),
    },
  };
}
