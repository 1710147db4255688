import { expect } from 'chai';
import { createJobDeps } from '../../../jobs/deps.js';
import { setJobCron, setJobPaused } from '../../../domain/jobs/jobState.js';
import { runJob } from '../../../jobs/runJob.js';
import { startScheduler, type Scheduler } from '../../../jobs/scheduler.js';
import type { Job } from '../../../domain/jobs/types.js';
import { devnetChains } from '../../../internal/devnetChains.js';
import { createLogger } from '../../../internal/logger.js';
import { resetDatabase } from '../../helpers/database.js';
import { eventually } from '../../helpers/eventually.js';
import { testConfig, uniqueIndexPrefix } from '../../helpers/testConfig.js';

describe('jobs: pause, resume and schedule overrides (job_state)', function () {
  const logger = createLogger({ level: 'silent', name: 'test' });
  /** The scheduler's log lines (debug and up): runJob logs each tick it skips for a pause. */
  const logged: { msg?: string; job?: string }[] = [];
  const schedulerLogger = createLogger({
    level: 'debug',
    name: 'test-scheduler',
    destination: { write: (line: string) => void logged.push(JSON.parse(line)) },
  });
  const pausedSkips = () => logged.filter((l) => l.job === 'ticker' && l.msg === 'job skipped: paused').length;
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
    await setJobPaused(deps.pg, 'ticker', true);
    // Paused an hour ago, as far as the row says: pausing again must not move it to now.
    const { rows } = await deps.pg.query<{ paused_at: Date }>(
      `UPDATE job_state SET paused_at = paused_at - interval '1 hour' WHERE job = 'ticker' RETURNING paused_at`,
    );
    const again = await setJobPaused(deps.pg, 'ticker', true);
    expect(again.pausedAt!.getTime()).to.equal(rows[0]!.paused_at.getTime());
  });

  it('skips the ticks of a paused job in the scheduler and runs it again after resume', async function () {
    scheduler = startScheduler({ config, logger: schedulerLogger, jobs: [ticker], refreshMs: 100 });
    await scheduler.ready;
    expect(scheduler.schedules()).to.deep.equal({ ticker: '* * * * * *' });
    let start = runs;
    await eventually(() => runs > start, { timeoutMs: 3000, what: 'a scheduled run' });

    await setJobPaused(deps.pg, 'ticker', true);
    // A skipped tick means every earlier run has ended (a unit's ticks never overlap): count from there.
    const skipped = pausedSkips();
    await eventually(() => pausedSkips() > skipped, { timeoutMs: 3000, what: 'a tick skipped for the pause' });
    start = runs;
    const skippedFrom = pausedSkips();
    await eventually(() => pausedSkips() >= skippedFrom + 2, { timeoutMs: 5000, what: 'two more paused ticks' });
    expect(runs, 'no run while paused, over two ticks the scheduler made').to.equal(start);

    await setJobPaused(deps.pg, 'ticker', false);
    await eventually(() => runs > start, { timeoutMs: 3000, what: 'a run after resume' });
  });

  it('applies a persisted schedule change without a restart and returns to the environment\'s on "default"', async function () {
    // A witness job ticking every second in the same scheduler shows the seconds that passed.
    let witnessed = 0;
    const witness: Job = {
      name: 'witness',
      description: 'ticks every second',
      defaultCron: '* * * * * *',
      run: async () => (witnessed++, { ranges: [], counts: { witnessed } }),
    };
    scheduler = startScheduler({ config, logger, jobs: [ticker, witness], refreshMs: 100 });
    await scheduler.ready;
    await setJobCron(deps.pg, 'ticker', '0 0 0 1 1 *');
    await eventually(() => scheduler!.schedules()['ticker'] === '0 0 0 1 1 *', {
      timeoutMs: 2000,
      what: 'the override',
    });
    // Past one witness tick, a ticker run begun before the change has ended: count from there.
    const settled = witnessed;
    await eventually(() => witnessed > settled, { timeoutMs: 3000, what: 'a witness tick' });
    const start = runs;
    const from = witnessed;
    await eventually(() => witnessed >= from + 2, { timeoutMs: 5000, what: 'two more witness ticks' });
    expect(runs, 'no run on the yearly schedule while the scheduler ticked twice').to.equal(start);
    const { rows } = await deps.pg.query('SELECT job, cron FROM job_state');
    expect(rows).to.deep.equal([{ job: 'ticker', cron: '0 0 0 1 1 *' }]);

    await setJobCron(deps.pg, 'ticker', null);
    await eventually(() => scheduler!.schedules()['ticker'] === '* * * * * *', {
      timeoutMs: 2000,
      what: 'JOB_TICKER_CRON again',
    });
    await eventually(() => runs > start, { timeoutMs: 3000, what: 'a run on the restored schedule' });
  });

  it('reads an override at start and ignores an invalid one', async function () {
    await setJobCron(deps.pg, 'ticker', '*/7 * * * * *');
    scheduler = startScheduler({ config, logger, jobs: [ticker], refreshMs: 100 });
    await scheduler.ready;
    expect(scheduler.schedules()).to.deep.equal({ ticker: '*/7 * * * * *' });
    await setJobCron(deps.pg, 'ticker', 'every now and then');
    await eventually(() => scheduler!.schedules()['ticker'] === '* * * * * *', {
      timeoutMs: 2000,
      what: 'the fallback to JOB_TICKER_CRON',
    });
  });
});
