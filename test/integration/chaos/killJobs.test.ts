import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPublicClient, http, parseAbi } from 'viem';
import { distributionCreatorAbi } from '../../../contracts/artifacts/index.js';
import { indexNames } from '../../../internal/es.js';
import { startPriceApiServer, type PriceApiServer } from '../../../scripts/priceApiServer.js';
import { DEMO_MARKETS, seedDemoCampaigns } from '../../../scripts/seedDemo.js';
import { chaosSettings } from '../../helpers/chaosSettings.js';
import { childProcessEnv } from '../../helpers/testConfig.js';
import { createHarness, type Harness } from '../../helpers/harness.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const JOBS = ['blocks', 'campaigns', 'roots', 'claims', 'tokens', 'prices', 'metrics', 'publish'];
/** Kills per job (CHAOS_JOB_KILLS; `npm run chaos` raises it). */
const KILLS = chaosSettings.jobKills;

describe('chaos: every job killed with SIGKILL at random points', function () {
  let h: Harness;
  let api: PriceApiServer;
  let env: NodeJS.ProcessEnv;

  before(async function () {
    api = await startPriceApiServer();
    const treeDir = mkdtempSync(join(tmpdir(), 'trees-'));
    h = await createHarness({ chainIds: [31337], env: { PRICE_API_URL: api.url, REWARD_TREE_SOURCE: treeDir } });
    const { devnet, stack } = h.chains[0]!;
    const seeded = await seedDemoCampaigns({ rpcUrl: devnet.rpcUrl, chainId: devnet.chainId, stack, treeDir });
    seeded.markets.forEach((m, i) => api.prices.set(`chain-31337:${m.address.toLowerCase()}`, DEMO_MARKETS[i]!.priceUsd));
    // Small batches: many commit points to be killed between.
    env = childProcessEnv(h.config, { LOG_LEVEL: 'debug', INDEXER_MAX_LOG_RANGE: '2', INDEXER_MAX_BLOCK_BATCH: '3', INDEXER_PUBLISH_BATCH: '5' });
  });

  after(async () => {
    await h?.close();
    await api?.close();
  });

  /**
   * Runs one job in its own process; with `killAfterMs`, SIGKILLs it that long after the job's run
   * started (after process start-up, so inside the job's own work) if it is still running.
   */
  function runJobProcess(job: string, killAfterMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }> {
    // The final catch-up runs use normal batch sizes so one run reaches the head (a blocks run stops after 20 batches).
    const runEnv = killAfterMs === undefined ? childProcessEnv(h.config) : env;
    const child = spawn(process.execPath, ['--import', 'tsx', 'jobs/cli.ts', 'run', job], { cwd: ROOT, env: runEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let timer: NodeJS.Timeout | undefined;
    child.stdout.on('data', (d) => {
      output += d;
      if (killAfterMs !== undefined && timer === undefined && output.includes('"job started"')) timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    });
    child.stderr.on('data', (d) => (output += d));
    return new Promise((resolve) => child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, output });
    }));
  }

  it('leaves PostgreSQL equal to the chain and Elasticsearch equal to PostgreSQL, nothing duplicated or lost', async function () {
    let killed = 0;
    for (let round = 0; round < KILLS; round++) {
      for (const job of JOBS) {
        const outcome = await runJobProcess(job, Math.floor(Math.random() * 120));
        if (outcome.signal === 'SIGKILL') killed += 1;
        else expect(outcome.code, `${job}: ${outcome.output.slice(-400)}`).to.equal(0);
      }
    }
    expect(killed, "runs killed mid-way (short jobs may finish first)").to.be.at.least(Math.ceil(JOBS.length * KILLS / 5));
    for (const job of [...JOBS, 'publish']) {
      const outcome = await runJobProcess(job);
      expect(outcome.code, `${job}: ${outcome.output.slice(-600)}`).to.equal(0);
    }

    // PostgreSQL equals the chain: one row per log.
    const { devnet, stack } = h.chains[0]!;
    const client = createPublicClient({ transport: http(devnet.rpcUrl) });
    const count = async (address: `0x${string}`, abi: readonly unknown[], eventName: string) =>
      (await client.getContractEvents({ address, abi: abi as never, eventName: eventName as never, fromBlock: 0n, toBlock: 'latest' })).length;
    const sql = async (query: string) => Number((await h.apiPg.query<{ n: string }>(query)).rows[0]!.n);
    const distributorAbi = parseAbi(['event TreeUpdated(bytes32 merkleRoot, bytes32 ipfsHash, uint48 endOfDisputePeriod)', 'event Claimed(address indexed user, address indexed token, uint256 amount)']);
    expect(await sql('SELECT count(*) AS n FROM campaigns')).to.equal(await count(stack.distributionCreator, distributionCreatorAbi, 'NewCampaign'));
    expect(await sql('SELECT count(*) AS n FROM roots')).to.equal(await count(stack.distributor, distributorAbi, 'TreeUpdated'));
    expect(await sql('SELECT count(*) AS n FROM claims')).to.equal(await count(stack.distributor, distributorAbi, 'Claimed'));
    expect(await sql(`SELECT count(*) AS n FROM reward_trees WHERE status = 'verified'`)).to.equal(await sql('SELECT count(DISTINCT root) AS n FROM roots'));
    expect(await sql('SELECT count(*) AS n FROM search_outbox')).to.equal(0);
    expect(await sql(`SELECT count(*) AS n FROM job_runs WHERE status = 'running'`)).to.equal(0);

    // Elasticsearch equals PostgreSQL: same ids, no extra, no missing.
    await h.refresh();
    const esIds = async (family: 'campaigns' | 'opportunities') =>
      (await h.deps.es.search({ index: indexNames(h.config.esIndexPrefix, family).read, size: 1000, _source: false })).hits.hits.map((x) => x._id!).sort();
    const pgIds = async (query: string) => (await h.apiPg.query<{ id: string }>(query)).rows.map((r) => r.id).sort();
    expect(await esIds('campaigns')).to.deep.equal(await pgIds('SELECT id FROM campaigns'));
    expect(await esIds('opportunities')).to.deep.equal(await pgIds('SELECT DISTINCT opportunity_id AS id FROM campaigns_current'));
    const metrics = await sql('SELECT count(*) AS n FROM campaign_metrics');
    expect(metrics).to.equal(await sql('SELECT count(*) AS n FROM campaigns'));
  });
});
