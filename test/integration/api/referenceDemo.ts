import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPriceApiServer, type PriceApiServer } from '../../../scripts/priceApiServer.js';
import { DEMO_MARKETS, demoChainConfig, seedDemoCampaigns, type SeedDemoResult } from '../../../scripts/seedDemo.js';
import { seedCreators } from '../../../scripts/seedCreators.js';
import { createHarness, type Harness } from '../../helpers/harness.js';

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

/**
 * One devnet seeded with scripts/seedDemo.ts (16 markets, real Uniswap V3 pools and Morpho Blue
 * markets among them, creators #0/#2/#3, three verified roots, claims), configured as the quick start
 * configures it (demoChainConfig), every job run once against a local price API, and the demo creators registered.
 */
export async function createReferenceDemo(env: Record<string, string> = {}): Promise<ReferenceDemo> {
  const api = await startPriceApiServer();
  const treeDir = mkdtempSync(join(tmpdir(), 'trees-'));
  const h = await createHarness({
    chainIds: [31337],
    chainOverrides: demoChainConfig,
    env: { PRICE_API_URL: api.url, REWARD_TREE_SOURCE: treeDir, ...env },
  });
  const { devnet, stack } = h.chains[0]!;
  const seeded = await seedDemoCampaigns({ rpcUrl: devnet.rpcUrl, chainId: devnet.chainId, stack, treeDir });
  seeded.markets.forEach((m, i) => api.prices.set(`chain-31337:${m.address.toLowerCase()}`, DEMO_MARKETS[i]!.priceUsd));
  for (const job of JOBS) {
    const run = await h.runJob(job);
    if (run.status !== 'success') throw new Error(`job ${job} failed: ${JSON.stringify(run)}`);
  }
  await seedCreators(h.deps.pg);
  await h.refresh();
  return {
    h,
    api,
    seeded,
    close: async () => {
      await h.close();
      await api.close();
    },
  };
}

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
