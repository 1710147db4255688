import supertest from 'supertest';
import { expect } from 'chai';
import { setJobPaused } from '../../../domain/jobs/jobState.js';
import { runJob } from '../../../jobs/runJob.js';
import type { Job } from '../../../domain/jobs/types.js';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { seedCampaigns } from '../../helpers/seedCampaigns.js';

describe("GET /v4/health: operators' fields", function () {
  let h: Harness;
  const broken: Job = {
    name: 'broken',
    description: 'always fails',
    defaultCron: '* * * * *',
    run: async () => {
      throw new Error('rpc said no');
    },
  };

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
    expect(res.body).to.include.keys(
      'status',
      'checkedAt',
      'postgres',
      'elasticsearch',
      'chains',
      'jobs',
      'outbox',
      'freshness',
    );
    type JobBody = {
      name: string;
      paused: boolean;
      pausedAt: string | null;
      runs24h: number;
      errors24h: number;
      lagSeconds: number | null;
      lastRun: { status: string } | null;
      chains: { lagBlocks: number }[];
    };
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

  it("reports stale prices, unverified reward trees per chain and each cursor's lag in chain seconds", async function () {
    const pg = h.deps.pg;
    await pg.query(
      "INSERT INTO tokens (id, chain_id, address, name, symbol, decimals) VALUES ('t-fresh', 31337, '0x01', 'F', 'F', 18), ('t-stale', 31337, '0x02', 'S', 'S', 18)",
    );
    await pg.query(
      "INSERT INTO token_prices (token_id, price, price_source, updated_at, fetched_at) VALUES ('t-fresh', 1, 'test', now(), now()), ('t-stale', 1, 'test', now() - interval '2 days', now())",
    );
    for (const [n, status] of [
      [1, 'pending'],
      [2, 'mismatch'],
      [3, 'verified'],
    ] as const) {
      const root = `0x${n.toString(16).padStart(64, '0')}`;
      await pg.query(
        "INSERT INTO roots (chain_id, root, ipfs_hash, end_of_dispute_period, block_number, block_hash, tx_hash, log_index, timestamp) VALUES (31337, $1, 'bafy', 0, $2, $1, $1, 0, 1)",
        [root, n],
      );
      await pg.query('INSERT INTO reward_trees (chain_id, root, status) VALUES (31337, $1, $2)', [root, status]);
    }
    // An app of its own: h.app may still serve the answer the previous test read (HEALTH_CACHE_MS).
    const res = await supertest(h.createApp().callback()).get('/v4/health').expect(200);
    expect(res.body.prices).to.deep.include({ tracked: 2, stale: 1, maxAgeSeconds: h.config.prices.maxAgeSeconds });
    expect(res.body.prices.oldestAgeSeconds).to.be.within(2 * 86_400 - 60, 2 * 86_400 + 60);
    expect(res.body.unverifiedTrees).to.deep.equal([{ chainId: 31337, pending: 1, mismatch: 1, unavailable: 0 }]);
    const campaigns = res.body.jobs.find((j: { name: string }) => j.name === 'campaigns');
    // The devnet's clock is the wall clock: the cursor block was mined moments ago.
    expect(campaigns.chains[0].lagSeconds).to.be.a('number').and.within(0, 600);
  });
});
