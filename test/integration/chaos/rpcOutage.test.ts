import { expect } from 'chai';
import supertest from 'supertest';
import { HEALTH_CACHE_MS } from '../../../api/routes/health/handlers.js';
import { createCampaigns, encodeErc20CampaignData, getLatestTimestamp } from '../../../contracts/actions.js';
import { jsonRpc } from '../../../contracts/devnet.js';
import { createChainClients } from '../../../internal/rpc.js';
import { findJob } from '../../../jobs/registry.js';
import { startScheduler, type Scheduler } from '../../../jobs/scheduler.js';
import { createLogger } from '../../../internal/logger.js';
import { chaosSettings } from '../../helpers/chaosSettings.js';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { startStoppableRpcEndpoint, type StoppableRpcEndpoint } from '../../helpers/stoppableRpcEndpoint.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('chaos: the RPC node stopped and restarted under a running scheduler', function () {
  let h: Harness;
  let rpc: StoppableRpcEndpoint;
  let scheduler: Scheduler | undefined;
  let created = 0;

  const createCampaign = async () => {
    const { devnet, stack } = h.chains[0]!;
    const now = await getLatestTimestamp({ rpcUrl: devnet.rpcUrl });
    await createCampaigns({
      rpcUrl: devnet.rpcUrl,
      chainId: devnet.chainId,
      stack,
      campaigns: [
        {
          rewardToken: stack.tokens.rewards[0]!.address,
          amount: 10n ** 18n,
          campaignType: 1,
          startTimestamp: now + 3600 + created,
          duration: 86_400,
          campaignData: encodeErc20CampaignData({ targetToken: stack.tokens.targets[0]!.address }),
        },
      ],
    });
    created += 1;
  };
  const stored = async () =>
    Number((await h.deps.pg.query<{ n: string }>('SELECT count(*) AS n FROM campaigns')).rows[0]!.n);
  const cursorOf = async (job: string) =>
    Number(
      (
        await h.deps.pg.query<{ n: string }>(
          `SELECT block_number AS n FROM cursors WHERE job = $1 AND chain_id = 31337`,
          [job],
        )
      ).rows[0]?.n ?? -1,
    );
  const waitFor = async (what: string, ms: number, ok: () => Promise<boolean>) => {
    const deadline = Date.now() + ms;
    while (!(await ok())) {
      if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
      await sleep(200);
    }
  };

  before(async function () {
    h = await createHarness({ chainIds: [31337], env: { RPC_RETRIES: '1', RPC_TIMEOUT_MS: '1000' } });
    rpc = await startStoppableRpcEndpoint(h.chains[0]!.devnet.rpcUrl);
  });

  after(async () => {
    await scheduler?.stop();
    await rpc?.start().catch(() => {});
    await h?.close();
  });

  it('jobs fail, back off and report the outage in /v4/health, then resume from their cursors', async function () {
    this.timeout(180_000 + chaosSettings.rpcOutageSeconds * 2000);
    const config = {
      ...h.config,
      chains: h.config.chains.map((c) => ({ ...c, rpcUrl: rpc.url })),
      schedules: { blocks: '* * * * * *', campaigns: '* * * * * *', publish: '* * * * * *' },
    };
    const api = supertest(
      h
        .createApp({
          config,
          logger: createLogger({ level: 'silent', name: 'chaos-api' }),
          rpc: createChainClients(config),
        })
        .callback(),
    );
    scheduler = startScheduler({
      config,
      logger: createLogger({ level: 'silent', name: 'chaos-scheduler' }),
      jobs: ['blocks', 'campaigns', 'publish'].map((n) => findJob(n)!),
      failureBackoff: { baseDelayMs: 1000, maxDelayMs: 4000 },
    });
    await scheduler.ready;
    for (let i = 0; i < 3; i++) await createCampaign();
    const head = Number(await jsonRpc<string>(h.chains[0]!.devnet.rpcUrl, 'eth_blockNumber'));
    await waitFor(
      'the first campaigns and both cursors at the head',
      30_000,
      async () =>
        (await stored()) === created && (await cursorOf('blocks')) >= head && (await cursorOf('campaigns')) >= head,
    ).catch(async (error) => {
      const { rows } = await h.deps.pg.query(`SELECT job, status, error FROM job_runs ORDER BY id DESC LIMIT 5`);
      throw new Error(`${(error as Error).message}; latest runs ${JSON.stringify(rows)}`);
    });
    expect((await api.get('/v4/health')).status).to.equal(200);

    await rpc.stop();
    const downAt = new Date();
    const cursorsAtOutage = { blocks: await cursorOf('blocks'), campaigns: await cursorOf('campaigns') };
    for (let i = 0; i < 2; i++) await createCampaign(); // the chain goes on behind the stopped endpoint
    await sleep(chaosSettings.rpcOutageSeconds * 1000);

    // A run may be under way at any given moment (retrying its calls before it fails): read health
    // until the latest run is a finished one, while the node is still down.
    const blocksJobOf = (body: { jobs: { name: string; lastRun: { status: string; error: string } }[] }) =>
      body.jobs.find((j) => j.name === 'blocks')!;
    let health = await api.get('/v4/health');
    await waitFor('a finished blocks run in /v4/health', 15_000, async () => {
      health = await api.get('/v4/health');
      return blocksJobOf(health.body).lastRun.status !== 'running';
    });
    expect(health.status, 'health answers 503 while the RPC node is down').to.equal(503);
    expect(health.body.status).to.equal('degraded');
    expect(health.body.chains[0].rpc.ok).to.equal(false);
    const blocksJob = blocksJobOf(health.body);
    expect(blocksJob.lastRun.status).to.equal('failed');
    expect(blocksJob.lastRun.error).to.match(/ECONNREFUSED|fetch failed|HTTP request failed/i);
    const downSeconds = (Date.now() - downAt.getTime()) / 1000;
    const { rows: failed } = await h.deps.pg.query<{ started_at: Date }>(
      `SELECT started_at FROM job_runs WHERE job = 'blocks' AND status = 'failed' AND started_at >= $1 ORDER BY started_at`,
      [downAt],
    );
    // Ticks every second; with backoff 1 s, 2 s, 4 s, 4 s … the job runs far fewer times than it ticks.
    expect(failed.length, 'failed blocks runs during the outage').to.be.within(1, Math.ceil(downSeconds / 4) + 3);
    expect(failed.length, 'fewer runs than ticks').to.be.below(downSeconds - 1);
    expect(await cursorOf('blocks'), 'blocks cursor unchanged').to.equal(cursorsAtOutage.blocks);
    expect(await cursorOf('campaigns'), 'campaigns cursor unchanged').to.equal(cursorsAtOutage.campaigns);
    expect(await stored()).to.equal(created - 2);

    await rpc.start();
    const upAt = Date.now();
    // A run records its success only after its transaction committed, so the campaigns can be visible a moment
    // before the run that stored them is: wait for both.
    const resumedRuns = async () =>
      (
        await h.deps.pg.query<{ job: string; ranges: { from: number }[] }>(
          `SELECT DISTINCT ON (job) job, ranges FROM job_runs WHERE job IN ('blocks', 'campaigns') AND status = 'success' AND started_at >= $1 AND jsonb_array_length(ranges) > 0 ORDER BY job, started_at`,
          [downAt],
        )
      ).rows;
    await waitFor('indexing to resume after the RPC restart', 30_000, async () => (await stored()) === created);
    const resumedSeconds = (Date.now() - upAt) / 1000;
    await waitFor(
      'the resumed runs of both jobs to be recorded',
      10_000,
      async () => (await resumedRuns()).length === 2,
    ).catch(async (error) => {
      const { rows } = await h.deps.pg.query(
        `SELECT job, status, ranges, started_at FROM job_runs WHERE started_at >= $1 ORDER BY id DESC LIMIT 8`,
        [downAt],
      );
      throw new Error(`${(error as Error).message}; latest runs ${JSON.stringify(rows)}`);
    });
    // Health answers are shared for HEALTH_CACHE_MS: the degraded one read during the outage may still be served.
    await waitFor('health 200 again', 3 * HEALTH_CACHE_MS, async () => (await api.get('/v4/health')).status === 200);
    // The first successful run after the outage starts right after the cursor it had: nothing skipped, nothing read twice.
    const resumed = await resumedRuns();
    for (const run of resumed)
      expect(run.ranges[0]!.from, run.job).to.equal(cursorsAtOutage[run.job as 'blocks' | 'campaigns'] + 1);
    expect(resumed.map((r) => r.job).sort()).to.deep.equal(['blocks', 'campaigns']);
    const { rows: dupes } = await h.deps.pg.query(
      `SELECT campaign_id FROM campaigns GROUP BY campaign_id HAVING count(*) > 1`,
    );
    expect(dupes).to.deep.equal([]);
    console.log(
      `    RPC down ${chaosSettings.rpcOutageSeconds} s: ${failed.length} failed blocks runs (ticks every 1 s), indexing resumed ${resumedSeconds.toFixed(1)} s after the restart`,
    );
  });
});
