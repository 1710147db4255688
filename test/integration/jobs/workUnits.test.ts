import { expect } from 'chai';
import type { ChildProcess } from 'node:child_process';
import { createCampaigns, encodeErc20CampaignData, getLatestTimestamp } from '../../../contracts/actions.js';
import { loadJobStatuses } from '../../../domain/jobs/jobStatus.js';
import type { Job } from '../../../domain/jobs/types.js';
import { JOB_LOCK_NAMESPACE, runJob, unitLockKey } from '../../../jobs/runJob.js';
import { startScheduler, type Scheduler } from '../../../jobs/scheduler.js';
import { syncBlocks } from '../../../jobs/syncBlocks.js';
import { syncCampaigns } from '../../../jobs/syncCampaigns.js';
import { createLogger } from '../../../internal/logger.js';
import { startFlakyRpcProxy, type FlakyRpcProxy } from '../../helpers/flakyRpcProxy.js';
import { eventually } from '../../helpers/eventually.js';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { everySecond, startSchedulerProcess } from '../../helpers/schedulerProcess.js';
import { overlaps, type UnitRun } from '../../helpers/unitOverlaps.js';

describe('jobs: work units (job × chain), concurrent chains, several schedulers', function () {
  let h: Harness;
  const [A, B, C] = [31337, 31338, 31339];

  before(async function () {
    this.timeout(240_000);
    h = await createHarness({ chainIds: [A, B, C] });
  });
  after(async function () {
    this.timeout(60_000);
    await h?.close();
  });

  /** Creates one campaign on a chain (starting in an hour, a day long). */
  const createOn = async (chainId: number) => {
    const { devnet, stack } = h.chains.find((c) => c.devnet.chainId === chainId)!;
    const now = await getLatestTimestamp({ rpcUrl: devnet.rpcUrl });
    return (
      await createCampaigns({
        rpcUrl: devnet.rpcUrl,
        chainId,
        stack,
        campaigns: [
          {
            rewardToken: stack.tokens.rewards[0]!.address,
            amount: 10n ** 18n,
            campaignType: 1,
            startTimestamp: now + 3600,
            duration: 86_400,
            campaignData: encodeErc20CampaignData({ targetToken: stack.tokens.targets[0]!.address }),
          },
        ],
      })
    ).campaignIds[0]!;
  };
  const indexed = async (chainId: number, campaignId: string) =>
    (
      await h.deps.pg.query('SELECT 1 FROM campaigns WHERE distribution_chain_id = $1 AND lower(campaign_id) = $2', [
        chainId,
        campaignId.toLowerCase(),
      ])
    ).rowCount === 1;
  const unitRuns = async (since: Date) =>
    (
      await h.deps.pg.query<UnitRun>(
        `SELECT job, chain_id, runner, started_at, finished_at FROM job_runs
         WHERE job IN ('blocks', 'campaigns') AND started_at >= $1 ORDER BY started_at`,
        [since],
      )
    ).rows;

  it("runs a per-chain job's unit on its chain only, under its own lock, recorded with its chain", async function () {
    this.timeout(60_000);
    const run = await runJob(syncBlocks, h.deps, { chainId: A, trigger: 'cli' });
    expect(run.status).to.equal('success');
    const { rows } = await h.deps.pg.query<{ chain_id: number | null }>(
      `SELECT chain_id FROM job_runs WHERE job = 'blocks'`,
    );
    expect(rows).to.deep.equal([{ chain_id: A }]);
    const cursors = await h.deps.pg.query<{ chain_id: number }>(
      `SELECT chain_id FROM cursors WHERE job = 'blocks' ORDER BY chain_id`,
    );
    expect(cursors.rows.map((r) => r.chain_id)).to.deep.equal([A]);

    // Another process holds chain B's campaigns unit: that unit and a whole-job run skip, chain A's unit runs.
    const holder = await h.deps.pg.connect();
    try {
      await holder.query('SELECT pg_advisory_lock($1, hashtext($2))', [
        JOB_LOCK_NAMESPACE,
        unitLockKey('campaigns', B),
      ]);
      expect((await runJob(syncCampaigns, h.deps, { chainId: B })).status).to.equal('skipped');
      expect((await runJob(syncCampaigns, h.deps)).status, 'a run over every chain').to.equal('skipped');
      expect((await runJob(syncCampaigns, h.deps, { chainId: A })).status).to.equal('success');
    } finally {
      await holder.query('SELECT pg_advisory_unlock_all()');
      holder.release();
    }
    let refused: unknown;
    await runJob(syncCampaigns, h.deps, { chainId: 999 }).catch((e) => (refused = e));
    expect(String(refused)).to.match(/chain 999 is not configured/);
  });

  it('gives every chain its turn when a process has fewer slots than units (each job rotates on its own)', async function () {
    this.timeout(60_000);
    // Four chains (no RPC call is made: the jobs only record which chain they were given), two jobs, one slot.
    const chainIds = [1, 2, 3, 4];
    const seen = new Map<string, Set<number>>();
    const recorder = (name: string): Job => ({
      name,
      description: 'records its chain',
      defaultCron: '* * * * * *',
      perChain: true,
      run: async (deps) => {
        for (const id of deps.rpc.keys()) seen.set(name, (seen.get(name) ?? new Set()).add(id));
        return { ranges: [], counts: {} };
      },
    });
    const scheduler = startScheduler({
      config: {
        ...h.config,
        chains: chainIds.map((id) => ({ ...h.config.chains[0]!, id })),
        schedulerConcurrency: 1,
        followPollMs: 0,
      },
      logger: createLogger({ level: 'silent', name: 'test' }),
      jobs: [recorder('first-recorder'), recorder('second-recorder')],
    });
    try {
      await scheduler.ready;
      await eventually(
        async () => ['first-recorder', 'second-recorder'].every((n) => seen.get(n)?.size === chainIds.length),
        { timeoutMs: 30_000, intervalMs: 250, what: 'every chain run by each job' },
      );
    } finally {
      await scheduler.stop();
    }
  });

  it('keeps indexing the other chains while one answers in 3 s per call, then not at all; it catches up when healed', async function () {
    this.timeout(240_000);
    // The slow chain is the first configured: a job looping over the chains in turn would wait on it.
    const [S, F1, F2] = [A, B, C];
    const slow: FlakyRpcProxy = await startFlakyRpcProxy(h.config.chains.find((c) => c.id === S)!.rpcUrl);
    const since = new Date();
    let scheduler: Scheduler | undefined;
    try {
      slow.delayNext(10_000, 3000);
      const config = {
        ...h.config,
        chains: h.config.chains.map((c) => (c.id === S ? { ...c, rpcUrl: slow.url } : c)),
        schedules: { ...h.config.schedules, blocks: '* * * * * *', campaigns: '* * * * * *' },
      };
      scheduler = startScheduler({
        config,
        logger: createLogger({ level: 'silent', name: 'test' }),
        jobs: [syncBlocks, syncCampaigns],
        failureBackoff: { baseDelayMs: 500, maxDelayMs: 2000 },
      });
      await scheduler.ready;
      // The slow chain's first unit is under way (its calls take 3 s each) before anything is created.
      await eventually(async () => (await unitRuns(since)).some((r) => r.chain_id === S), {
        timeoutMs: 30_000,
        intervalMs: 250,
        what: 'a unit of the slow chain started',
      });
      const [onF1, onF2, onS] = [await createOn(F1), await createOn(F2), await createOn(S)];
      await eventually(async () => (await indexed(F1, onF1)) && (await indexed(F2, onF2)), {
        timeoutMs: 60_000,
        intervalMs: 250,
        what: 'the fast chains indexed',
      });
      const fastDone = new Date();
      // S's first unit run was still going (or had not indexed its campaign) when F1 and F2 were done.
      expect(await indexed(S, onS), "the slow chain's campaign, not yet").to.equal(false);
      const slowRuns = (await unitRuns(since)).filter((r) => r.chain_id === S);
      expect(
        slowRuns.some((r) => r.finished_at === null || r.finished_at > fastDone),
        'the slow chain was busy meanwhile',
      ).to.equal(true);

      // Down: S's units fail and back off; F1 keeps indexing new campaigns.
      slow.heal();
      slow.failNext(10_000, 503);
      const again = await createOn(F1);
      await eventually(() => indexed(F1, again), {
        timeoutMs: 60_000,
        intervalMs: 250,
        what: 'chain F1 indexed while S is down',
      });
      await eventually(
        async () => {
          const blocks = (await loadJobStatuses(h.deps.pg, ['blocks']))[0]!;
          const c = blocks.chains.find((x) => x.chainId === S);
          return c && c.consecutiveFailures > 0 && c.lastRun?.status === 'failed' ? c : false;
        },
        { timeoutMs: 60_000, intervalMs: 250, what: 'chain S reported failing' },
      );
      const health = await h.request().get('/v4/health');
      const healthBlocks = (
        health.body.jobs as { name: string; chains: { chainId: number; consecutiveFailures: number }[] }[]
      ).find((j) => j.name === 'blocks')!;
      expect(healthBlocks.chains.find((c) => c.chainId === S)!.consecutiveFailures).to.be.above(0);
      expect(healthBlocks.chains.find((c) => c.chainId === F1)!.consecutiveFailures).to.equal(0);

      slow.heal();
      await eventually(() => indexed(S, onS), {
        timeoutMs: 90_000,
        intervalMs: 250,
        what: 'chain S caught up once healed',
      });
    } finally {
      await scheduler?.stop();
      await slow.close();
    }
    expect(overlaps(await unitRuns(since))).to.deep.equal([]);
  });

  for (const count of [2, 3])
    it(`shares the units between ${count} scheduler processes, never one unit twice at once; a killed one leaves its units to the others`, async function () {
      this.timeout(240_000);
      const since = new Date();
      const env = { ...everySecond(['blocks', 'campaigns']), SCHEDULER_JOBS: 'blocks,campaigns' };
      const procs: ChildProcess[] = [];
      try {
        const started = await Promise.all(Array.from({ length: count }, () => startSchedulerProcess(h.config, env)));
        procs.push(...started.map((s) => s.proc));
        // Runners of this test's processes only (a process of the previous test may have committed a run
        // row just before its SIGKILL landed).
        const ours = (runner: string) => procs.some((p) => runner.endsWith(`:${p.pid}`));
        const runners = await eventually(
          async () => {
            const seen = new Set((await unitRuns(since)).map((r) => r.runner).filter(ours));
            return seen.size >= 2 ? [...seen] : false;
          },
          { timeoutMs: 60_000, intervalMs: 250, what: 'at least two processes running units' },
        );
        expect(runners.length).to.be.within(2, count);

        const [victim, ...survivors] = procs;
        victim!.kill('SIGKILL');
        await new Promise((r) => victim!.once('exit', r));
        const killedAt = new Date();
        const alive = survivors.map((p) => `:${p.pid}`);
        const created = await Promise.all([A, B, C].map(async (id) => [id, await createOn(id)] as const));
        await eventually(
          async () => {
            for (const [id, campaignId] of created) if (!(await indexed(id, campaignId))) return false;
            return true;
          },
          { timeoutMs: 90_000, intervalMs: 250, what: 'every chain indexed by the survivors' },
        );
        // Every unit completes a run after the kill (a run that wrote the rows may still be finishing).
        const after = await eventually(
          async () => {
            const runs = (await unitRuns(killedAt)).filter((r) => r.finished_at !== null);
            const covered = ['blocks', 'campaigns'].every((job) =>
              [A, B, C].every((id) => runs.some((r) => r.job === job && r.chain_id === id)),
            );
            return covered ? runs : false;
          },
          { timeoutMs: 60_000, intervalMs: 250, what: 'every unit run to its end after the kill' },
        );
        expect(
          after.filter((r) => !alive.some((a) => r.runner.endsWith(a))).map((r) => r.runner),
          'only survivors run after the kill',
        ).to.deep.equal([]);
      } finally {
        const running = procs.filter((p) => p.exitCode === null && p.signalCode === null);
        for (const p of running) p.kill('SIGKILL');
        await Promise.all(running.map((p) => new Promise((r) => p.once('exit', r))));
      }
      // Runs the dead process left 'running' were closed by a survivor before it took their units.
      expect(overlaps(await unitRuns(since))).to.deep.equal([]);
    });
});
