import { expect } from 'chai';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPriceApiServer, type PriceApiServer } from '../../../scripts/priceApiServer.js';
import { startChainActivity, type ChainActivityCounts } from '../../helpers/chainActivity.js';
import { chaosSettings } from '../../helpers/chaosSettings.js';
import { expectIndexedLikeChain, expectNoRunLeftRunning } from '../../helpers/expectIndexedLikeChain.js';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { everySecond, startSchedulerProcess, type SchedulerProcess } from '../../helpers/schedulerProcess.js';
import { overlaps, type UnitRun } from '../../helpers/unitOverlaps.js';
import { eventually } from '../../helpers/eventually.js';

const JOBS = ['blocks', 'campaigns', 'roots', 'claims', 'tokens', 'publish'];
/** The per-chain jobs among them: their runs are work units (job × chain). */
const UNIT_JOBS = ['blocks', 'campaigns', 'roots', 'claims', 'tokens'];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe(`chaos: ${chaosSettings.schedulers} scheduler processes share ${chaosSettings.chains} chains; one of them SIGKILLed ${chaosSettings.schedulerKills} times while every chain keeps producing`, function () {
  let h: Harness;
  let prices: PriceApiServer;
  let treeDir: string;
  const procs = new Set<ChildProcess>();

  before(async function () {
    this.timeout(600_000);
    prices = await startPriceApiServer();
    treeDir = mkdtempSync(join(tmpdir(), 'trees-'));
    const chainIds = Array.from({ length: chaosSettings.chains }, (_, i) => 31337 + i);
    h = await createHarness({ chainIds, env: { PRICE_API_URL: prices.url, REWARD_TREE_SOURCE: treeDir } });
  });

  after(async function () {
    this.timeout(60_000);
    for (const p of procs) p.kill('SIGKILL');
    await h?.close();
    await prices?.close();
  });

  const start = async (): Promise<SchedulerProcess> => {
    const s = await startSchedulerProcess(h.config, {
      ...everySecond(JOBS),
      SCHEDULER_JOBS: JOBS.join(','),
      FOLLOW_POLL_MS: '250',
      INDEXER_MAX_LOG_RANGE: '5',
      INDEXER_PUBLISH_BATCH: '10',
    });
    procs.add(s.proc);
    s.proc.once('exit', () => procs.delete(s.proc));
    return s;
  };

  it('every unit runs, never twice at once; a killed process leaves its units to the others; at the end PostgreSQL equals every chain and Elasticsearch equals PostgreSQL', async function () {
    this.timeout(300_000 + chaosSettings.schedulerKills * 20_000 + chaosSettings.chains * 30_000);
    const since = new Date();
    const activities = h.chains.map(({ devnet, stack }) =>
      startChainActivity({
        rpcUrl: devnet.rpcUrl,
        chainId: devnet.chainId,
        stack,
        treeDir,
        pauseMs: 300,
        fundDistributor: true,
      }),
    );
    const running: SchedulerProcess[] = [];
    const killedAfterMs: number[] = [];
    let produced: ChainActivityCounts[] = [];
    try {
      for (let i = 0; i < chaosSettings.schedulers; i++) running.push(await start());
      for (let kill = 0; kill < chaosSettings.schedulerKills; kill++) {
        const afterMs = 500 + Math.floor(Math.random() * 2500);
        await sleep(afterMs);
        const victim = running.splice(Math.floor(Math.random() * running.length), 1)[0]!;
        expect(victim.proc.exitCode, `scheduler died by itself: ${victim.output().slice(-600)}`).to.equal(null);
        const exited = new Promise((r) => victim.proc.once('exit', r));
        victim.proc.kill('SIGKILL');
        await exited;
        killedAfterMs.push(afterMs);
        running.push(await start());
      }
    } finally {
      produced = await Promise.all(activities.map((a) => a.stop()));
    }
    expect(
      produced.every((p) => p.campaigns > 0),
      'every chain produced during the kills',
    ).to.equal(true);

    // Catch-up: the survivors and replacements, undisturbed, until every chain is indexed.
    const t0 = Date.now();
    const totals = await eventually(
      async () => {
        for (const s of running) expect(s.proc.exitCode, s.output().slice(-600)).to.equal(null);
        return expectIndexedLikeChain(h);
      },
      { timeoutMs: 180_000, intervalMs: 2000, what: 'every chain indexed like the chain' },
    );
    const convergedSeconds = (Date.now() - t0) / 1000;
    for (const s of running) {
      const exited = new Promise((r) => s.proc.once('exit', r));
      s.proc.kill('SIGTERM');
      await exited;
    }
    await expectNoRunLeftRunning(h);

    const { rows } = await h.apiPg.query<UnitRun>(
      'SELECT job, chain_id, runner, started_at, finished_at FROM job_runs WHERE started_at >= $1',
      [since],
    );
    expect(overlaps(rows), 'no unit ran twice at once').to.deep.equal([]);
    const runnersOf = (job: string, chainId: number) =>
      new Set(rows.filter((r) => r.job === job && r.chain_id === chainId).map((r) => r.runner));
    for (const job of UNIT_JOBS)
      for (const { devnet } of h.chains)
        expect(runnersOf(job, devnet.chainId).size, `${job} on chain ${devnet.chainId} ran`).to.be.above(0);
    const runners = new Set(rows.map((r) => r.runner));
    expect(runners.size, 'every process started ran units').to.be.at.least(chaosSettings.schedulers);
    // The processes alive together at the end shared the units: each of them ran some.
    for (const s of running)
      expect(
        rows.some((r) => r.runner.endsWith(`:${s.proc.pid}`) && r.chain_id !== null),
        `scheduler ${s.proc.pid} (alive at the end) ran units`,
      ).to.equal(true);
    const sum = (key: keyof ChainActivityCounts) => produced.reduce((n, p) => n + p[key], 0);
    console.log(
      `    ${chaosSettings.chains} chains, ${chaosSettings.schedulers} schedulers, ${killedAfterMs.length} SIGKILLs (after ${Math.min(...killedAfterMs)}–${Math.max(...killedAfterMs)} ms) while producing ${sum('campaigns')} campaigns, ${sum('overrides')} overrides, ${sum('trees')} trees, ${sum('claims')} claims; ${rows.length} runs by ${runners.size} processes; converged ${convergedSeconds.toFixed(1)} s after the last kill; totals ${JSON.stringify(totals)} equal in PostgreSQL and Elasticsearch`,
    );
  });
});
