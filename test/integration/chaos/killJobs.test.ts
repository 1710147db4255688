import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPublicClient, http, parseAbi } from 'viem';
import { distributionCreatorAbi } from '../../../contracts/artifacts/index.js';
import { startPriceApiServer, type PriceApiServer } from '../../../scripts/priceApiServer.js';
import { DEMO_MARKETS, demoChainConfig, seedDemoCampaigns } from '../../../scripts/seedDemo.js';
import { startChainActivity } from '../../helpers/chainActivity.js';
import { chaosSettings } from '../../helpers/chaosSettings.js';
import { childProcessEnv } from '../../helpers/testConfig.js';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { seededRandom } from '../../helpers/seededRandom.js';
import { expectSearchLikePostgres } from '../../helpers/esDocumentIds.js';
import { nodeArgs } from '../../helpers/compiledSources.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const JOBS = ['blocks', 'campaigns', 'roots', 'claims', 'tokens', 'prices', 'metrics', 'publish'];
/** Kills per job (CHAOS_JOB_KILLS; `npm run chaos` raises it). */
const KILLS = chaosSettings.jobKills;
/** Random seed of the kill schedule (CHAOS_SEED reproduces a run's jobs, delays and retries; printed). */
const SEED = process.env['CHAOS_SEED'] ? Number(process.env['CHAOS_SEED']) : Math.floor(Math.random() * 2 ** 31);
/**
 * The test's budget is progress, not wall time: it fails (and stops everything it started) only when
 * no job process has finished for this long, however slow the machine (a run takes seconds).
 */
const STALL_MS = 180_000;
/** Attempts per planned kill: a job that finished before its kill is run again with a shorter delay. */
const ATTEMPTS = 3;

describe('chaos: every job killed with SIGKILL at random points', function () {
  let h: Harness;
  let api: PriceApiServer;
  let env: NodeJS.ProcessEnv;
  let treeDir: string;
  /** Every job process this suite started and that has not exited: killed on stall and in `after`. */
  const running = new Set<ChildProcess>();
  let stopped = false;

  before(async function () {
    this.timeout(300_000);
    api = await startPriceApiServer();
    treeDir = mkdtempSync(join(tmpdir(), 'trees-'));
    h = await createHarness({
      chainIds: [31337],
      chainOverrides: demoChainConfig,
      env: { PRICE_API_URL: api.url, REWARD_TREE_SOURCE: treeDir },
    });
    const { devnet, stack } = h.chains[0]!;
    const seeded = await seedDemoCampaigns({ rpcUrl: devnet.rpcUrl, chainId: devnet.chainId, stack, treeDir });
    seeded.markets.forEach((m, i) =>
      api.prices.set(`chain-31337:${m.address.toLowerCase()}`, DEMO_MARKETS[i]!.priceUsd),
    );
    // Small batches: many commit points to be killed between.
    env = childProcessEnv(h.config, {
      LOG_LEVEL: 'debug',
      INDEXER_MAX_LOG_RANGE: '2',
      INDEXER_MAX_BLOCK_BATCH: '3',
      INDEXER_PUBLISH_BATCH: '5',
    });
  });

  after(async function () {
    this.timeout(60_000);
    stopped = true;
    for (const child of running) child.kill('SIGKILL');
    await h?.close();
    await api?.close();
  });

  /**
   * Runs one job in its own process; with `killAfterMs`, SIGKILLs it that long after the job's run
   * started (after process start-up, so inside the job's own work) if it is still running.
   */
  async function runJobProcess(
    job: string,
    killAfterMs?: number,
  ): Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }> {
    // The final catch-up runs use normal batch sizes so one run reaches the head (a blocks run stops after 20 batches).
    const runEnv = killAfterMs === undefined ? childProcessEnv(h.config) : env;
    const args = await nodeArgs('jobs/cli.ts', 'run', job);
    if (stopped) throw new Error(`not starting ${job}: the test has stopped`);
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env: runEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    running.add(child);
    let output = '';
    let timer: NodeJS.Timeout | undefined;
    child.stdout.on('data', (d) => {
      output += d;
      if (killAfterMs !== undefined && timer === undefined && output.includes('"job started"'))
        timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    });
    child.stderr.on('data', (d) => (output += d));
    return new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        running.delete(child);
        resolve({ code, signal, output });
      }),
    );
  }

  /**
   * Runs `work` with a watchdog fed by `progress()`: when nothing progresses for STALL_MS, stops
   * everything this suite started (no new process, running ones SIGKILLed) and fails.
   */
  async function withStallBudget<T>(work: (progress: () => void) => Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    let rejectStall: (error: Error) => void = () => {};
    const stall = new Promise<never>((_, reject) => (rejectStall = reject));
    const progress = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        stopped = true;
        for (const child of running) child.kill('SIGKILL');
        rejectStall(
          new Error(`no job process finished for ${STALL_MS / 1000} s: stopped every process (seed ${SEED})`),
        );
      }, STALL_MS);
    };
    progress();
    try {
      return await Promise.race([work(progress), stall]);
    } finally {
      clearTimeout(timer);
    }
  }

  it('leaves PostgreSQL equal to the chain and Elasticsearch equal to PostgreSQL, nothing duplicated or lost', async function () {
    // Mocha's wall-clock timeout is off: the budget is progress (withStallBudget), whatever the machine's speed.
    this.timeout(0);
    const random = seededRandom(SEED);
    const planned = KILLS * JOBS.length;
    let killed = 0;
    let runs = 0;
    const { devnet, stack } = h.chains[0]!;
    // The chain keeps producing during the kills (as in killIndexer): every run has new logs to index.
    const activity = startChainActivity({ rpcUrl: devnet.rpcUrl, chainId: devnet.chainId, stack, treeDir });
    let produced;
    try {
      await withStallBudget(async (progress) => {
        for (let round = 0; round < KILLS; round++) {
          for (const job of JOBS) {
            // A job that finished before its kill runs again, sooner killed (the last attempt right at its start).
            for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
              const delay = attempt === ATTEMPTS - 1 ? 0 : Math.floor(random() * (120 >> attempt));
              const outcome = await runJobProcess(job, delay);
              runs++;
              progress();
              if (outcome.signal === 'SIGKILL') {
                killed++;
                break;
              }
              expect(outcome.code, `${job} (seed ${SEED}): ${outcome.output.slice(-400)}`).to.equal(0);
            }
          }
        }
      });
    } finally {
      produced = await activity.stop();
    }
    console.log(
      `    ${killed} of ${planned} planned SIGKILLs delivered in ${runs} job runs (seed ${SEED}: CHAOS_SEED=${SEED} repeats the schedule) while the chain produced ${JSON.stringify(produced)}`,
    );
    expect(produced.campaigns, 'campaigns created during the kills').to.be.above(0);
    expect(killed, `SIGKILLs delivered (seed ${SEED})`).to.be.at.least(Math.ceil(planned * 0.9));
    // Catch-up, undisturbed: passes of every job until nothing is left behind (a run does a bounded
    // amount of work: trees produced during the kills take several), each pass counted as progress.
    const sql = async (query: string) => Number((await h.apiPg.query<{ n: string }>(query)).rows[0]!.n);
    const treesChecked = async () =>
      (await sql(`SELECT count(*) AS n FROM reward_trees WHERE status = 'verified'`)) ===
      (await sql('SELECT count(DISTINCT root) AS n FROM roots'));
    let rootsRuns = 0;
    await withStallBudget(async (progress) => {
      const run = async (job: string) => {
        const outcome = await runJobProcess(job);
        progress();
        expect(outcome.code, `${job}: ${outcome.output.slice(-600)}`).to.equal(0);
      };
      // A pass: every job once in pipeline order in one process (the operators' `jobs:run -- all`), then
      // publish once more for what the later jobs queued.
      const pass = async () => {
        await run('all');
        await run('publish');
      };
      await pass();
      // `roots` checks 10 trees per run: run it alone until every tree is checked, then every job once more.
      while (!(await treesChecked()) && rootsRuns < 40) {
        await run('roots');
        rootsRuns++;
      }
      await pass();
    });
    console.log(`    caught up with ${rootsRuns} extra roots runs between two undisturbed passes`);

    // PostgreSQL equals the chain: one row per log.
    const client = createPublicClient({ transport: http(devnet.rpcUrl) });
    const count = async (address: `0x${string}`, abi: readonly unknown[], eventName: string) =>
      (
        await client.getContractEvents({
          address,
          abi: abi as never,
          eventName: eventName as never,
          fromBlock: 0n,
          toBlock: 'latest',
        })
      ).length;
    const distributorAbi = parseAbi([
      'event TreeUpdated(bytes32 merkleRoot, bytes32 ipfsHash, uint48 endOfDisputePeriod)',
      'event Claimed(address indexed user, address indexed token, uint256 amount)',
    ]);
    expect(await sql('SELECT count(*) AS n FROM campaigns')).to.equal(
      await count(stack.distributionCreator, distributionCreatorAbi, 'NewCampaign'),
    );
    expect(await sql('SELECT count(*) AS n FROM roots')).to.equal(
      await count(stack.distributor, distributorAbi, 'TreeUpdated'),
    );
    expect(await sql('SELECT count(*) AS n FROM claims')).to.equal(
      await count(stack.distributor, distributorAbi, 'Claimed'),
    );
    expect(await sql(`SELECT count(*) AS n FROM reward_trees WHERE status = 'verified'`)).to.equal(
      await sql('SELECT count(DISTINCT root) AS n FROM roots'),
    );
    expect(await sql('SELECT count(*) AS n FROM search_outbox')).to.equal(0);
    expect(await sql(`SELECT count(*) AS n FROM job_runs WHERE status = 'running'`)).to.equal(0);

    // Elasticsearch equals PostgreSQL: same ids, no extra, no missing.
    await h.refresh();
    await expectSearchLikePostgres(h);
    const metrics = await sql('SELECT count(*) AS n FROM campaign_metrics');
    expect(metrics).to.equal(await sql('SELECT count(*) AS n FROM campaigns'));
  });
});
