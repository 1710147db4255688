import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { createJobDeps } from '../../../jobs/deps.js';
import { setJobCron, setJobPaused } from '../../../domain/jobs/jobState.js';
import { runJob } from '../../../jobs/runJob.js';
import { startScheduler, type Scheduler } from '../../../jobs/scheduler.js';
import type { Job } from '../../../domain/jobs/types.js';
import { devnetChains } from '../../../internal/devnetChains.js';
import { createLogger } from '../../../internal/logger.js';
import { resetDatabase } from '../../helpers/database.js';
import { testConfig, uniqueIndexPrefix } from '../../helpers/testConfig.js';

/** Polls `predicate` every 50 ms until it holds or `ms` pass. */
async function eventually(predicate: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(50);
  }
}

describe('jobs: pause, resume and schedule overrides (job_state)', function () {
  const logger = createLogger({ level: 'silent', name: 'test' });
  const config = testConfig({
    chains: devnetChains(),
    esIndexPrefix: uniqueIndexPrefix(),
    env: { JOB_TICKER_CRON: '* * * * * *' },
  });
  const deps = createJobDeps(config, logger, new AbortController().signal);
  let runs = 0;
  /** Every second (JOB_TICKER_CRON); its default would be once a year. */
  const ticker: Job = {
    name: 'ticker',
    description: 'counts its runs',
    defaultCron: '0 0 0 1 1 *',
    run: async () => (runs++, { ranges: [], counts: { runs } }),
  };
  let scheduler: Scheduler | undefined;

  before(async () => resetDatabase(config.databaseUrl));
  afterEach(async () => {
    await scheduler?.stop();
    scheduler = undefined;
    await deps.pg.query('DELETE FROM job_state');
  });
  after(async () => deps.close());

  it('makes runJob skip a paused job without recording a run, run it when forced, and run it again after resume', async function () {
    const before = runs;
    await setJobPaused(deps.pg, 'ticker', true);
    expect(await runJob(ticker, deps)).to.deep.equal({ status: 'skipped', reason: 'paused' });
    expect(runs).to.equal(before);
    expect((await deps.pg.query(`SELECT 1 FROM job_runs WHERE job = 'ticker'`)).rowCount).to.equal(0);

    expect((await runJob(ticker, deps, { force: true })).status).to.equal('success');
    expect(runs).to.equal(before + 1);

    const resumed = await setJobPaused(deps.pg, 'ticker', false);
    expect(resumed).to.deep.include({ paused: false, pausedAt: null });
    expect((await runJob(ticker, deps)).status).to.equal('success');
    expect(runs).to.equal(before + 2);
  });

  it('keeps the first pause time when a paused job is paused again', async function () {
    const first = await setJobPaused(deps.pg, 'ticker', true);
    await sleep(20);
    const again = await setJobPaused(deps.pg, 'ticker', true);
    expect(again.pausedAt!.getTime()).to.equal(first.pausedAt!.getTime());
  });

  it('skips the ticks of a paused job in the scheduler and runs it again after resume', async function () {
    scheduler = startScheduler({ config, logger, jobs: [ticker], refreshMs: 100 });
    await scheduler.ready;
    expect(scheduler.schedules()).to.deep.equal({ ticker: '* * * * * *' });
    let start = runs;
    await eventually(() => runs > start, 3000, 'a scheduled run');

    await setJobPaused(deps.pg, 'ticker', true);
    await sleep(300); // a tick already past its pause check finishes
    start = runs;
    await sleep(2300);
    expect(runs, 'no run while paused').to.equal(start);

    await setJobPaused(deps.pg, 'ticker', false);
    await eventually(() => runs > start, 3000, 'a run after resume');
  });

  it('applies a persisted schedule change without a restart and returns to the environment\'s on "default"', async function () {
    scheduler = startScheduler({ config, logger, jobs: [ticker], refreshMs: 100 });
    await scheduler.ready;
    await setJobCron(deps.pg, 'ticker', '0 0 0 1 1 *');
    await eventually(() => scheduler!.schedules()['ticker'] === '0 0 0 1 1 *', 2000, 'the override');
    await sleep(300);
    const start = runs;
    await sleep(2100);
    expect(runs, 'no run on the yearly schedule').to.equal(start);
    const { rows } = await deps.pg.query('SELECT job, cron FROM job_state');
    expect(rows).to.deep.equal([{ job: 'ticker', cron: '0 0 0 1 1 *' }]);

    await setJobCron(deps.pg, 'ticker', null);
    await eventually(() => scheduler!.schedules()['ticker'] === '* * * * * *', 2000, 'JOB_TICKER_CRON again');
    await eventually(() => runs > start, 3000, 'a run on the restored schedule');
  });

  it('reads an override at start and ignores an invalid one', async function () {
    await setJobCron(deps.pg, 'ticker', '*/7 * * * * *');
    scheduler = startScheduler({ config, logger, jobs: [ticker], refreshMs: 100 });
    await scheduler.ready;
    expect(scheduler.schedules()).to.deep.equal({ ticker: '*/7 * * * * *' });
    await setJobCron(deps.pg, 'ticker', 'every now and then');
    await eventually(() => scheduler!.schedules()['ticker'] === '* * * * * *', 2000, 'the fallback to JOB_TICKER_CRON');
  });
});
