import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPriceApiServer, type PriceApiServer } from '../../../scripts/priceApiServer.js';
import { DEMO_MARKETS, demoChainConfig, seedDemoCampaigns, type SeedDemoResult } from '../../../scripts/seedDemo.js';
import { seedCreators } from '../../../scripts/seedCreators.js';
import { createEsClient } from '../../../internal/es.js';
import { deleteIndices } from '../../../search-mappings/aliases.js';
import { databaseNameOf, databaseUrlNamed, dropDatabase } from '../../helpers/database.js';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { type ChainVariant, type LeasedChains, leaseTestChains } from '../../helpers/sharedChains.js';
import { TEST_DATABASE_URL, TEST_ES_URL } from '../../helpers/testConfig.js';
import { afterRun } from '../../helpers/afterRun.js';

/** Jobs that fill every table the reference-data routes read, in dependency order. */
const JOBS = [
  'blocks',
  'campaigns',
  'campaign-fees',
  'roots',
  'claims',
  'tokens',
  'prices',
  'metrics',
  'distributed',
  'publish',
];

export type ReferenceDemo = { h: Harness; api: PriceApiServer; seeded: SeedDemoResult; close(): Promise<void> };

/** A demo built once: its database (a template to clone), its indices' prefix and the price API's prices. */
type DemoTemplate = { database: string; esIndexPrefix: string; prices: [string, number][] };
/** The demo's devnet state, seeded once per devnet; its templates are only valid on that devnet (block hashes). */
type DemoChain = { seeded: SeedDemoResult; treeDir: string; templates: Map<string, Promise<DemoTemplate>> };

const demoChain: ChainVariant = {
  name: 'reference-demo',
  async prepare({ devnet, stack }): Promise<DemoChain> {
    const treeDir = mkdtempSync(join(tmpdir(), 'trees-'));
    const seeded = await seedDemoCampaigns({ rpcUrl: devnet.rpcUrl, chainId: devnet.chainId, stack, treeDir });
    return { seeded, treeDir, templates: new Map() };
  },
};

const builtTemplates: DemoTemplate[] = [];
let templatesStarted = 0;

/**
 * One devnet seeded with scripts/seedDemo.ts (16 markets, real Uniswap V3 pools and Morpho Blue
 * markets among them, creators #0/#2/#3, three verified roots, claims), configured as the quick start
 * configures it (demoChainConfig), every job run once against a local price API, and the demo creators registered.
 *
 * Built once per mocha process and `env`: the devnet is seeded once and reset to that seeded snapshot
 * per suite (sharedChains.ts), the database filled by the jobs is cloned (CREATE DATABASE … TEMPLATE)
 * and the published documents copied into this suite's own indices; the suite gets its own price API
 * with the demo's prices.
 */
export async function createReferenceDemo(env: Record<string, string> = {}): Promise<ReferenceDemo> {
  const chains = await leaseTestChains([31337], { variant: demoChain });
  let api: PriceApiServer | undefined;
  try {
    const demo = chains.prepared[0] as DemoChain;
    const key = JSON.stringify(env);
    let template = demo.templates.get(key);
    if (!template) {
      template = buildTemplate(chains, demo, env);
      demo.templates.set(key, template);
      template.catch(() => demo.templates.delete(key));
    }
    const { database, esIndexPrefix, prices } = await template;
    api = await startPriceApiServer({ prices: new Map(prices) });
    const h = await createHarness({
      chains,
      chainOverrides: demoChainConfig,
      env: { PRICE_API_URL: api.url, REWARD_TREE_SOURCE: demo.treeDir, ...env },
      from: { database, esIndexPrefix },
    });
    const own = api;
    return {
      h,
      api: own,
      seeded: structuredClone(demo.seeded),
      close: async () => {
        await h.close();
        await own.close();
      },
    };
  } catch (error) {
    await chains.stop();
    await api?.close();
    throw error;
  }
}

/** Runs the demo's jobs once into a database of its own, kept as the template every suite clones. */
async function buildTemplate(
  chains: LeasedChains,
  demo: DemoChain,
  env: Record<string, string>,
): Promise<DemoTemplate> {
  const api = await startPriceApiServer();
  const database = `${databaseNameOf(TEST_DATABASE_URL)}_demo_${templatesStarted++}`;
  demo.seeded.markets.forEach((m, i) =>
    api.prices.set(`chain-31337:${m.address.toLowerCase()}`, DEMO_MARKETS[i]!.priceUsd),
  );
  // The build's harness must not release the devnet: the suite's harness goes on with the same lease.
  const h = await createHarness({
    chains: { ...chains, stop: async () => {} },
    chainOverrides: demoChainConfig,
    env: {
      PRICE_API_URL: api.url,
      REWARD_TREE_SOURCE: demo.treeDir,
      ...env,
      DATABASE_URL: databaseUrlNamed(TEST_DATABASE_URL, database),
    },
    keepIndices: true,
  });
  try {
    for (const job of JOBS) {
      const run = await h.runJob(job);
      if (run.status !== 'success') throw new Error(`job ${job} failed: ${JSON.stringify(run)}`);
    }
    await seedCreators(h.deps.pg);
    await h.refresh();
  } finally {
    await h.close();
    await api.close();
  }
  const template = { database, esIndexPrefix: h.config.esIndexPrefix, prices: [...api.prices] };
  builtTemplates.push(template);
  return template;
}

// The templates go once every suite of the run is done (afterRun; after a parallel run, parallelRun.ts).
afterRun(async () => {
  const es = createEsClient({ node: TEST_ES_URL, requestTimeoutMs: 30_000 });
  for (const t of builtTemplates.splice(0)) {
    await dropDatabase(databaseUrlNamed(TEST_DATABASE_URL, t.database)).catch(() => {});
    await deleteIndices({ es, prefix: t.esIndexPrefix }).catch(() => {});
  }
  await es.close();
});

/**
 * A daily close of `close` USD for every reward token of the trees of `chainId`, the day before its
 * first root: what each root's distributed rewards are valued at (the demo's prices job stores the
 * current day only). Table token_price_history.
 */
export async function priceRewardTokensBeforeFirstRoot(h: Harness, chainId: number, close = 2.5): Promise<void> {
  await h.deps.pg.query(
    `INSERT INTO token_price_history (token_id, day, open, close, min, max, source, updated_at)
     SELECT tk.id, (to_timestamp((SELECT min(timestamp) FROM roots WHERE chain_id = $1)) AT TIME ZONE 'UTC')::date - 1,
       $2::float8, $2::float8, $2::float8, $2::float8, 'test', now()
     FROM tokens tk WHERE tk.chain_id = $1 AND lower(tk.address) IN (SELECT DISTINCT token FROM reward_leaf_versions)
     ON CONFLICT (token_id, day) DO UPDATE SET close = $2::float8`,
    [chainId, close],
  );
}
