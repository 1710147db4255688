import { expect } from 'chai';
import supertest from 'supertest';
import { HARDHAT_TEST_KEYS } from '../../../contracts/clients.js';
import { JOB_LOCK_NAMESPACE, runJob, unitLockKey } from '../../../jobs/runJob.js';
import { findJob, JOBS } from '../../../jobs/registry.js';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { seedCampaigns } from '../../helpers/seedCampaigns.js';
import { TEST_BACK_OFFICE_TOKEN } from '../../helpers/testConfig.js';
import { login, type Session } from './authFlow.js';

describe('/v4/internal/jobs (back-office job operations)', function () {
  let h: Harness;
  let request: () => ReturnType<typeof supertest>;
  let session: Session;
  let apiKey: string;
  const bo = { authorization: TEST_BACK_OFFICE_TOKEN };
  const stateOf = async (job: string) =>
    (await h.deps.pg.query('SELECT paused, cron FROM job_state WHERE job = $1', [job])).rows[0] ?? null;

  before(async function () {
    h = await createHarness({ chainIds: [31337] });
    await seedCampaigns({ chain: h.chains[0]!, perTx: 2, txs: 1 });
    expect((await h.runJob('blocks')).status).to.equal('success');
    request = () => supertest(h.createApp().callback());
    session = await login(h, HARDHAT_TEST_KEYS[0]!);
    apiKey = (
      await h
        .request()
        .post('/v4/developer/keys/')
        .set('cookie', session.cookie)
        .send({ description: 'ops test' })
        .expect(200)
    ).body.rawKey;
  });

  after(async () => h?.close());

  const routes: [string, string, Record<string, unknown>?][] = [
    ['get', '/v4/internal/jobs'],
    ['post', '/v4/internal/jobs/blocks/run'],
    ['post', '/v4/internal/jobs/blocks/pause'],
    ['post', '/v4/internal/jobs/blocks/resume'],
    ['put', '/v4/internal/jobs/blocks/schedule', { cron: '*/5 * * * * *' }],
  ];

  it('refuses every route without the back-office credential (401) and to a wallet session or an API key (403), changing nothing', async function () {
    for (const [method, path, body] of routes) {
      const call = (headers: Record<string, string>) =>
        (request() as unknown as Record<string, (p: string) => supertest.Test>)[method]!(path)
          .set(headers)
          .send(body ?? {});
      expect((await call({})).status, `${method} ${path} anonymous`).to.equal(401);
      const anonymous = await call({});
      expect(anonymous.body.detail, 'no credential: required').to.match(/is required/);
      const wrong = await call({ authorization: 'not-the-token' });
      expect(wrong.status, `${method} ${path} wrong token`).to.equal(401);
      expect(wrong.body.detail, 'a credential was sent: refused, not "required"').to.equal(
        'The back-office credential in the authorization header was refused',
      );
      expect((await call({ cookie: session.cookie })).status, `${method} ${path} session`).to.equal(403);
      expect((await call({ 'x-api-key': apiKey })).status, `${method} ${path} api key`).to.equal(403);
    }
    expect(await stateOf('blocks')).to.equal(null);
  });

  it('lists every job with schedule, state, recent runs (duration, range, counts), lag per chain, outbox depth and freshness', async function () {
    const res = await request()
      .get('/v4/internal/jobs')
      .set('authorization', `Bearer ${TEST_BACK_OFFICE_TOKEN}`)
      .expect(200);
    expect(res.headers['cache-control']).to.equal('no-store');
    expect(res.body.jobs.map((j: { name: string }) => j.name)).to.deep.equal(JOBS.map((j) => j.name));
    const blocks = res.body.jobs.find((j: { name: string }) => j.name === 'blocks');
    expect(blocks).to.deep.include({
      state: 'active',
      schedule: findJob('blocks')!.defaultCron,
      scheduleSource: 'default',
      runs24h: 1,
      errors24h: 0,
    });
    expect(blocks.recentRuns).to.have.length(1);
    const [run] = blocks.recentRuns;
    expect(run.status).to.equal('success');
    expect(run.trigger, 'started by the harness like the scheduler').to.equal('schedule');
    expect(run.durationMs).to.be.a('number').and.be.at.least(0);
    expect(run.ranges[0]).to.include({ chainId: 31337 });
    expect(run.counts).to.be.an('object');
    expect(blocks.chains[0]).to.include({ chainId: 31337, lagBlocks: 0 });
    expect(res.body.outbox).to.have.keys('depth', 'oldestAgeSeconds');
    expect(res.body.freshness).to.include({ windowSeconds: 86_400 });
  });

  it('pauses and resumes a job, persisted in job_state (a scheduled run is skipped while paused)', async function () {
    const paused = await request().post('/v4/internal/jobs/campaigns/pause').set(bo).expect(200);
    expect(paused.body).to.include({ name: 'campaigns', state: 'paused' });
    expect(Date.parse(paused.body.pausedAt)).to.be.within(Date.now() - 60_000, Date.now() + 1000);
    expect(await stateOf('campaigns')).to.deep.include({ paused: true });
    expect(await runJob(findJob('campaigns')!, h.deps)).to.deep.equal({ status: 'skipped', reason: 'paused' });
    const resumed = await request().post('/v4/internal/jobs/campaigns/resume').set(bo).expect(200);
    expect(resumed.body).to.include({ state: 'active', pausedAt: null });
    expect(await stateOf('campaigns')).to.deep.include({ paused: false });
  });

  it('changes a schedule (persisted override) and resets it with null', async function () {
    const set = await request()
      .put('/v4/internal/jobs/prices/schedule')
      .set(bo)
      .send({ cron: '*/7 * * * * *' })
      .expect(200);
    expect(set.body).to.include({ schedule: '*/7 * * * * *', scheduleSource: 'job_state' });
    expect(await stateOf('prices')).to.deep.include({ cron: '*/7 * * * * *' });
    const reset = await request().put('/v4/internal/jobs/prices/schedule').set(bo).send({ cron: null }).expect(200);
    expect(reset.body).to.include({ schedule: findJob('prices')!.defaultCron, scheduleSource: 'default' });
    expect(await stateOf('prices')).to.deep.include({ cron: null });
  });

  it('answers 400 naming the field for a bad cron, a missing cron, an unknown field or an unknown job, changing nothing', async function () {
    const fieldsOf = (res: supertest.Response) => res.body.errors.map((e: { field: string }) => e.field);
    const bad = await request()
      .put('/v4/internal/jobs/prices/schedule')
      .set(bo)
      .send({ cron: '61 * * * *' })
      .expect(400);
    expect(bad.headers['content-type']).to.match(/application\/problem\+json/);
    expect(fieldsOf(bad)).to.deep.equal(['cron']);
    expect(
      fieldsOf(await request().put('/v4/internal/jobs/prices/schedule').set(bo).send({}).expect(400)),
    ).to.deep.equal(['cron']);
    expect(
      fieldsOf(
        await request().put('/v4/internal/jobs/prices/schedule').set(bo).send({ cron: '* * * * *', at: 1 }).expect(400),
      ),
    ).to.deep.equal(['at']);
    expect(fieldsOf(await request().post('/v4/internal/jobs/nope/pause').set(bo).expect(400))).to.deep.equal(['name']);
    expect(fieldsOf(await request().get('/v4/internal/jobs?runs=0').set(bo).expect(400))).to.deep.equal(['runs']);
    expect(await stateOf('prices')).to.deep.include({ cron: null });
    expect(await stateOf('nope')).to.equal(null);
  });

  it('answers 503 to run-now while no job runner listens, queuing nothing (job code never runs in the API)', async function () {
    const res = await request().post('/v4/internal/jobs/campaigns/run').set(bo).expect(503);
    expect(res.body.detail).to.match(/job runner/);
    const { rows } = await h.deps.pg.query('SELECT count(*)::int AS n FROM job_run_requests');
    expect(rows[0].n, 'no request left for a runner that may start later').to.equal(0);
    const runs = await h.deps.pg.query(`SELECT 1 FROM job_runs WHERE job = 'campaigns'`);
    expect(runs.rows, 'the API ran nothing itself').to.deep.equal([]);
  });

  it('runs a job now through a job runner, even when paused, and records the run and the request', async function () {
    await h.startJobRunner();
    await request().post('/v4/internal/jobs/campaigns/pause').set(bo).expect(200);
    const res = await request().post('/v4/internal/jobs/campaigns/run').set(bo).expect(200);
    expect(res.body).to.deep.include({ job: 'campaigns', status: 'success' });
    expect(res.body.run.counts.campaigns).to.equal(2);
    expect(res.body.run.trigger, 'a run asked for through the API is marked manual').to.equal('manual');
    const { rows } = await h.deps.pg.query(
      `SELECT status FROM job_runs WHERE job = 'campaigns' ORDER BY started_at DESC LIMIT 1`,
    );
    expect(rows[0].status).to.equal('success');
    expect(await stateOf('campaigns'), 'running does not resume').to.deep.include({ paused: true });
    const requestRow = await h.deps.pg.query(
      `SELECT claimed_by, finished_at, outcome FROM job_run_requests WHERE job = 'campaigns' ORDER BY id DESC LIMIT 1`,
    );
    expect(requestRow.rows[0].claimed_by, 'claimed by the runner (host:pid)').to.match(/:\d+$/);
    expect(requestRow.rows[0].finished_at).to.be.an.instanceOf(Date);
    expect(requestRow.rows[0].outcome).to.deep.include({ status: 'success', runId: res.body.run.id });
    await request().post('/v4/internal/jobs/campaigns/resume').set(bo).expect(200);
  });

  it('records a job with nothing configured as skipped with the reason (run, listing, health), not as a success (#44)', async function () {
    expect(h.config.ratchet.benchmarkRateUrl, 'the harness sets no BENCHMARK_RATE_URL').to.equal(undefined);
    const res = await request().post('/v4/internal/jobs/benchmark-rate/run').set(bo).expect(200);
    expect(res.body).to.deep.include({ job: 'benchmark-rate', status: 'skipped', reason: 'not-configured' });
    expect(res.body.skipReason).to.match(/^BENCHMARK_RATE_URL is not set/);
    expect(res.body.run).to.deep.include({ status: 'skipped', skipReason: res.body.skipReason, trigger: 'manual' });
    const { rows } = await h.deps.pg.query(
      `SELECT status, skip_reason, finished_at FROM job_runs WHERE job = 'benchmark-rate' ORDER BY started_at DESC LIMIT 1`,
    );
    expect(rows[0]).to.deep.include({ status: 'skipped', skip_reason: res.body.skipReason });
    expect(rows[0].finished_at).to.be.an.instanceOf(Date);
    const listing = (await request().get('/v4/internal/jobs').set(bo).expect(200)).body.jobs.find(
      (j: { name: string }) => j.name === 'benchmark-rate',
    );
    expect(listing.lastRun).to.deep.include({ status: 'skipped', skipReason: res.body.skipReason });
    expect(listing.lastSuccessAt, 'a skipped run is no success').to.equal(null);
    expect(listing.recentRuns[0]).to.deep.include({ status: 'skipped', skipReason: res.body.skipReason });
    const health = await request().get('/v4/health').set(bo);
    const healthJob = health.body.jobs.find((j: { name: string }) => j.name === 'benchmark-rate');
    expect(healthJob.lastRun).to.deep.include({ status: 'skipped', skipReason: res.body.skipReason });
  });

  it("answers 409 when another process holds the lock of one of the job's units", async function () {
    const holder = await h.deps.pg.connect();
    const unit = unitLockKey('claims', h.config.chains[0]!.id);
    try {
      await holder.query('SELECT pg_advisory_lock($1, hashtext($2))', [JOB_LOCK_NAMESPACE, unit]);
      const res = await request().post('/v4/internal/jobs/claims/run').set(bo).expect(409);
      expect(res.body).to.deep.equal({ job: 'claims', status: 'skipped', reason: 'locked' });
    } finally {
      await holder.query('SELECT pg_advisory_unlock($1, hashtext($2))', [JOB_LOCK_NAMESPACE, unit]);
      holder.release();
    }
  });
});
