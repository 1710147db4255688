import { expect } from 'chai';
import { setJobPaused } from '../../../jobs/jobState.js';
import { runJob } from '../../../jobs/runJob.js';
import type { Job } from '../../../jobs/types.js';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { seedCampaigns } from '../../helpers/seedCampaigns.js';

describe('GET /v4/health: operators\' fields', function () {
  let h: Harness;
  const broken: Job = { name: 'broken', description: 'always fails', defaultCron: '* * * * *', run: async () => { throw new Error('rpc said no'); } };

  before(async function () {
    h = await createHarness({ chainIds: [31337] });
    await seedCampaigns({ chain: h.chains[0]!, perTx: 2, txs: 2 });
    for (const job of ['blocks', 'campaigns']) expect((await h.runJob(job)).status, job).to.equal('success');
    for (let i = 0; i < 2; i++) await runJob(broken, h.deps).catch(() => {});
    await setJobPaused(h.deps.pg, 'publish', true);
  });

  after(async () => h?.close());

  it('adds paused state, runs and errors in 24 h per job, and freshness p50/p95, keeping the existing fields', async function () {
    const res = await h.request().get('/v4/health').expect(200);
    expect(res.body).to.include.keys('status', 'checkedAt', 'postgres', 'elasticsearch', 'chains', 'jobs', 'outbox', 'freshness');
    type JobBody = { name: string; paused: boolean; pausedAt: string | null; runs24h: number; errors24h: number; lagSeconds: number | null; lastRun: { status: string } | null; chains: { lagBlocks: number }[] };
    const byName = new Map<string, JobBody>(res.body.jobs.map((j: JobBody) => [j.name, j]));
    const campaigns = byName.get('campaigns')!;
    expect(campaigns).to.deep.include({ paused: false, pausedAt: null, runs24h: 1, errors24h: 0 });
    expect(campaigns.lagSeconds).to.be.within(0, 120);
    expect(campaigns.lastRun!.status).to.equal('success');
    expect(campaigns.chains.map((c) => c.lagBlocks)).to.deep.equal([0]);
    expect(byName.get('broken')).to.deep.include({ runs24h: 2, errors24h: 2, paused: false });
    const publish = byName.get('publish')!;
    expect(publish.paused).to.equal(true);
    expect(Date.parse(publish.pausedAt!)).to.be.within(Date.now() - 60_000, Date.now() + 1000);
    expect(publish.lastRun, 'a paused job that never ran is listed too').to.equal(null);
    expect(res.body.freshness).to.include({ windowSeconds: 86_400, samples: 4 });
    expect(res.body.freshness.p50Seconds).to.be.within(0, 120);
    expect(res.body.freshness.p95Seconds).to.be.within(res.body.freshness.p50Seconds, 120);
  });
});
