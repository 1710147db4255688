import { expect } from 'chai';
import { createJobDeps } from '../../../jobs/deps.js';
import { JOB_LOCK_NAMESPACE, lastRuns, runJob, unitLockKey } from '../../../jobs/runJob.js';
import type { Job } from '../../../domain/jobs/types.js';
import { createLogger } from '../../../internal/logger.js';
import { resetDatabase } from '../../helpers/database.js';
import { eventually } from '../../helpers/eventually.js';
import { testConfig, uniqueIndexPrefix } from '../../helpers/testConfig.js';
import { devnetChains } from '../../../internal/devnetChains.js';

const noWork = { ranges: [], counts: {} };

describe('jobs/runJob', function () {
  const config = testConfig({ chains: devnetChains(), esIndexPrefix: uniqueIndexPrefix() });
  const deps = createJobDeps(config, createLogger({ level: 'silent', name: 'test' }), new AbortController().signal);

  before(async () => resetDatabase(config.databaseUrl));
  after(async () => deps.close());

  it('lets only one of two concurrent runners run a job (advisory lock); the other skips', async function () {
    let executions = 0;
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow: Job = {
      name: 'slow',
      description: 'runs until released',
      defaultCron: '* * * * *',
      run: async () => (executions++, await held, { ranges: [], counts: { n: 1 } }),
    };
    const first = runJob(slow, deps);
    await eventually(() => executions === 1, { what: 'the first runner inside the job' });
    const second = await runJob(slow, deps); // while the first holds the lock
    release();
    const results = [await first, second];
    expect(results.map((r) => r.status).sort()).to.deep.equal(['skipped', 'success']);
    expect(executions).to.equal(1);
    const { rows } = await deps.pg.query(`SELECT status, counts FROM job_runs WHERE job = 'slow'`);
    expect(rows).to.deep.equal([{ status: 'success', counts: { n: 1 } }]);
  });

  it('records a failed run with its error and rethrows it', async function () {
    const broken: Job = {
      name: 'broken',
      description: 'fails',
      defaultCron: '* * * * *',
      run: async () => {
        throw new Error('rpc said no', { cause: new Error('429') });
      },
    };
    let thrown: unknown;
    await runJob(broken, deps).catch((e) => (thrown = e));
    expect((thrown as Error).message).to.equal('rpc said no');
    const run = (await lastRuns(deps)).find((r) => r.job === 'broken')!;
    expect(run.status).to.equal('failed');
    expect(run.error).to.equal('rpc said no — caused by: 429');
    expect(run.finishedAt).to.be.instanceOf(Date);
  });

  it('closes a run left running by a dead process before starting a new one', async function () {
    await deps.pg.query(`INSERT INTO job_runs (job, status) VALUES ('orphan', 'running')`);
    const job: Job = {
      name: 'orphan',
      description: '',
      defaultCron: '* * * * *',
      run: async () => ({ ranges: [{ chainId: 1, from: 5, to: 9 }], counts: {} }),
    };
    await runJob(job, deps);
    const { rows } = await deps.pg.query<{ status: string; error: string | null; ranges: unknown }>(
      `SELECT status, error, ranges FROM job_runs WHERE job = 'orphan' ORDER BY id`,
    );
    expect(rows.map((r) => r.status)).to.deep.equal(['failed', 'success']);
    expect(rows[0]!.error).to.match(/interrupted/);
    expect(rows[1]!.ranges).to.deep.equal([{ chainId: 1, from: 5, to: 9 }]);
  });

  it("closes other jobs' runs left running by a dead process, never a run whose lock is held", async function () {
    // A unit killed in a job that never runs again ('gone'), one of a chain ('gone-chain' on 31337), one of a
    // per-chain job run for every chain at once (chain null), and a live one: its unit lock held by another session.
    await deps.pg.query(
      `INSERT INTO job_runs (job, status, chain_id) VALUES ('gone', 'running', NULL), ('gone-chain', 'running', 31337),
         ('gone-all', 'running', NULL), ('alive', 'running', NULL), ('alive-chain', 'running', NULL)`,
    );
    const other = await deps.pg.connect();
    try {
      await other.query('SELECT pg_advisory_lock($1, hashtext($2))', [JOB_LOCK_NAMESPACE, unitLockKey('alive')]);
      // A per-chain job run for every chain holds each chain's lock: one of them is enough to be alive.
      const [chainId] = [...deps.rpc.keys()];
      await other.query('SELECT pg_advisory_lock($1, hashtext($2))', [
        JOB_LOCK_NAMESPACE,
        unitLockKey('alive-chain', chainId),
      ]);
      const job: Job = { name: 'another', description: '', defaultCron: '* * * * *', run: async () => noWork };
      await runJob(job, deps);
      const { rows } = await deps.pg.query<{ job: string; status: string; error: string | null }>(
        `SELECT job, status, error FROM job_runs WHERE job IN ('gone', 'gone-chain', 'gone-all', 'alive', 'alive-chain') ORDER BY job`,
      );
      expect(rows.map((r) => [r.job, r.status])).to.deep.equal([
        ['alive', 'running'],
        ['alive-chain', 'running'],
        ['gone', 'failed'],
        ['gone-all', 'failed'],
        ['gone-chain', 'failed'],
      ]);
      for (const r of rows.filter((r) => r.status === 'failed')) expect(r.error).to.match(/^interrupted/);
    } finally {
      other.release(true);
    }
  });
});
