import { expect } from 'chai';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPriceApiServer, type PriceApiServer } from '../../../scripts/priceApiServer.js';
import { DEMO_MARKETS, demoChainConfig, seedDemoCampaigns } from '../../../scripts/seedDemo.js';
import { truthCheck, type TruthCheckReport } from '../../../scripts/truthCheck.js';
import { startChainActivity } from '../../helpers/chainActivity.js';
import { chaosSettings } from '../../helpers/chaosSettings.js';
import { expectIndexedLikeChain, expectNoRunLeftRunning } from '../../helpers/expectIndexedLikeChain.js';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { everySecond, startSchedulerProcess } from '../../helpers/schedulerProcess.js';

const JOBS = ['blocks', 'campaigns', 'roots', 'claims', 'tokens', 'prices', 'metrics', 'publish'];
const EVERY_SECOND = everySecond(JOBS);

describe(`chaos: the indexer (scheduler running every job) SIGKILLed ${chaosSettings.indexerKills} times while the devnet keeps producing`, function () {
  let h: Harness;
  let prices: PriceApiServer;
  let treeDir: string;
  let child: ChildProcess | undefined;

  before(async function () {
    this.timeout(300_000);
    prices = await startPriceApiServer();
    treeDir = mkdtempSync(join(tmpdir(), 'trees-'));
    h = await createHarness({
      chainIds: [31337],
      chainOverrides: demoChainConfig,
      env: { PRICE_API_URL: prices.url, REWARD_TREE_SOURCE: treeDir },
    });
    const { devnet, stack } = h.chains[0]!;
    const seeded = await seedDemoCampaigns({ rpcUrl: devnet.rpcUrl, chainId: devnet.chainId, stack, treeDir });
    seeded.markets.forEach((m, i) =>
      prices.prices.set(`chain-31337:${m.address.toLowerCase()}`, DEMO_MARKETS[i]!.priceUsd),
    );
  });

  after(async function () {
    this.timeout(60_000);
    child?.kill('SIGKILL');
    await h?.close();
    await prices?.close();
  });

  /** Starts the scheduler process; resolves with it once its first job has started. */
  const startIndexer = (extra: Record<string, string>) =>
    startSchedulerProcess(h.config, { ...EVERY_SECOND, ...extra });

  it('after each restart the jobs resume from their cursors; at the end PostgreSQL equals the chain and Elasticsearch equals PostgreSQL, nothing duplicated', async function () {
    this.timeout(1_200_000 + chaosSettings.indexerKills * 20_000);
    const { devnet, stack } = h.chains[0]!;
    const activity = startChainActivity({ rpcUrl: devnet.rpcUrl, chainId: devnet.chainId, stack, treeDir });
    const killedAfterMs: number[] = [];
    try {
      for (let kill = 0; kill < chaosSettings.indexerKills; kill++) {
        // Small batches: many commit points to be killed between.
        const indexer = await startIndexer({
          INDEXER_MAX_LOG_RANGE: '3',
          INDEXER_MAX_BLOCK_BATCH: '4',
          INDEXER_PUBLISH_BATCH: '5',
        });
        child = indexer.proc;
        const afterMs = 100 + Math.floor(Math.random() * 2500);
        await new Promise((r) => setTimeout(r, afterMs));
        const exited = new Promise((r) => indexer.proc.once('exit', r));
        expect(indexer.proc.exitCode, `scheduler died by itself: ${indexer.output().slice(-600)}`).to.equal(null);
        indexer.proc.kill('SIGKILL');
        await exited;
        killedAfterMs.push(afterMs);
      }
    } finally {
      child = undefined;
      var produced = await activity.stop();
    }
    expect(produced.campaigns, 'campaigns created during the kills').to.be.above(0);

    // Catch-up: the indexer runs once more, undisturbed, until every job has reached the head and
    // the independent truth check (scripts/truthCheck.ts: chain state and stored prices alone) agrees
    // with every root, proof, claimed amount and figure the API serves.
    const apiUrl = h.url;
    const truth = (): Promise<TruthCheckReport> =>
      truthCheck({
        apiUrl,
        databaseUrl: h.config.databaseUrl,
        priceMaxAgeSeconds: h.config.prices.maxAgeSeconds,
        chains: h.config.chains.map((c) => ({
          id: c.id,
          rpcUrl: c.rpcUrl,
          distributor: c.distributor,
          distributionCreator: c.distributionCreator,
          startBlock: c.startBlock,
          ...(c.morphoBlue ? { morphoBlue: c.morphoBlue } : {}),
          ...(c.uniswapV4PoolManager ? { uniswapV4PoolManager: c.uniswapV4PoolManager } : {}),
        })),
      });
    const final = await startIndexer({});
    child = final.proc;
    // Two minutes without progress (verified trees, stored campaigns, metrics runs) fail the catch-up;
    // while it progresses (at full size the kills leave a hundred trees to verify), it goes on.
    const progress = async () =>
      JSON.stringify(
        (
          await h.deps.pg.query(
            `SELECT (SELECT count(*) FROM reward_trees WHERE status = 'verified') AS trees,
               (SELECT count(*) FROM campaigns) AS campaigns, (SELECT count(*) FROM search_outbox) AS outbox`,
          )
        ).rows[0],
      );
    let deadline = Date.now() + 120_000;
    const giveUp = Date.now() + 900_000;
    let seen = '';
    let lastError: unknown;
    for (;;) {
      try {
        await new Promise((r) => setTimeout(r, 2000));
        const now = await progress();
        if (now !== seen) [seen, deadline] = [now, Math.min(giveUp, Date.now() + 120_000)];
        expect(final.proc.exitCode).to.equal(null);
        var chain = await expectIndexedLikeChain(h);
        var report = await truth();
        expect(report.mismatches, 'truth check of the final state').to.deep.equal([]);
        break;
      } catch (error) {
        lastError = error;
        if (Date.now() > deadline) throw lastError;
      }
    }
    final.proc.kill('SIGTERM');
    await new Promise((r) => final.proc.once('exit', r));
    child = undefined;
    await expectNoRunLeftRunning(h);
    // How often the kills left trees stored out of the roots' order (what once made the distributed figures short).
    const { rows: order } = await h.deps.pg.query<{ n: number }>(
      `SELECT count(*) FILTER (WHERE seq < prev)::int AS n FROM (
         SELECT t.seq, lag(t.seq) OVER (ORDER BY r.block_number, r.log_index) AS prev
         FROM roots r JOIN reward_trees t ON t.chain_id = r.chain_id AND t.root = r.root AND t.seq IS NOT NULL
         WHERE r.chain_id = 31337) s`,
    );
    console.log(
      `    ${order[0]!.n} trees stored after the next root's; ${killedAfterMs.length} SIGKILLs (after ${Math.min(...killedAfterMs)}–${Math.max(...killedAfterMs)} ms) while producing ${JSON.stringify(produced)}; chain totals ${JSON.stringify(chain)} all equal in PostgreSQL and Elasticsearch; truth check: ${report.figures} figures agree ${JSON.stringify(report.compared)}`,
    );
  });
});
