import { expect } from 'chai';
import { createJobDeps } from '../../../jobs/deps.js';
import { startRunRequestWorker } from '../../../jobs/runRequestWorker.js';
import {
  awaitRunRequest,
  RUN_REQUEST_LOCK_CLASS,
  requestJobRun,
  type RunRequestOutcome,
} from '../../../domain/jobs/runRequests.js';
import type { Job } from '../../../domain/jobs/types.js';
import { createLogger } from '../../../internal/logger.js';
import { devnetChains } from '../../../internal/devnetChains.js';
import { resetDatabase } from '../../helpers/database.js';
import { testConfig, uniqueIndexPrefix } from '../../helpers/testConfig.js';

const quick: Job = {
  name: 'quick',
  description: 'does nothing',
  defaultCron: '* * * * *',
  run: async () => ({ ranges: [], counts: { n: 1 } }),
};

describe('job run requests: a runner that dies while running one (leases)', function () {
  const config = testConfig({ chains: devnetChains(), esIndexPrefix: uniqueIndexPrefix() });
  const deps = createJobDeps(config, createLogger({ level: 'silent', name: 'test' }), new AbortController().signal);

  before(async () => resetDatabase(config.databaseUrl));
  after(async () => deps.close());

  it('ends a request claimed by a runner that died as failed, never one whose runner holds its lease, then runs the next', async function () {
    // Two requests claimed by runners: one died (its lease, a session lock, went with it), one is alive (its lease
    // held by another session). Then a new request: the worker's claim ends the dead one first, and runs the new one.
    const dead = await requestJobRun(deps.pg, 'quick', 'manual');
    const alive = await requestJobRun(deps.pg, 'quick', 'manual');
    await deps.pg.query(`UPDATE job_run_requests SET claimed_at = now(), claimed_by = 'gone:1' WHERE id = ANY($1)`, [
      [dead, alive],
    ]);
    const runner = await deps.pg.connect();
    await runner.query('SELECT pg_advisory_lock($1, $2)', [RUN_REQUEST_LOCK_CLASS, alive]);
    const fresh = await requestJobRun(deps.pg, 'quick', 'manual');
    const worker = startRunRequestWorker({ deps, jobs: [quick] });
    try {
      await worker.ready;
      const ended = await awaitRunRequest(deps.pg, fresh, { waitMs: 30_000 });
      expect((ended.outcome as RunRequestOutcome | null)?.status).to.equal('success');
      const { rows } = await deps.pg.query<{ id: string; outcome: { status: string; error?: string } | null }>(
        'SELECT id, outcome FROM job_run_requests WHERE id = ANY($1) ORDER BY id',
        [[dead, alive]],
      );
      expect(rows.map((r) => r.outcome?.status ?? null)).to.deep.equal(['failed', null]);
      expect(rows[0]!.outcome!.error).to.equal('interrupted: the runner that claimed it (gone:1) died');
      // The fresh request's lease was released with its outcome: nothing of ours is left locked.
      const { rows: locks } = await deps.pg.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND classid = $1 AND objid = $2`,
        [RUN_REQUEST_LOCK_CLASS, fresh],
      );
      expect(locks[0]!.n).to.equal(0);
    } finally {
      await worker.stop();
      runner.release(true);
    }
  });
});
