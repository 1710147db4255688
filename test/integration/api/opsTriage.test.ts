import { expect } from 'chai';
import supertest from 'supertest';
import { getLatestTimestamp, mine } from '../../../contracts/actions.js';
import { LAG_ATTENTION_SECONDS } from '../../../domain/jobs/jobAttention.js';
import { nextRuns } from '../../../domain/jobs/nextRuns.js';
import { findJob } from '../../../jobs/registry.js';
import { runJob } from '../../../jobs/runJob.js';
import { DEAD_CHAIN_ID, withDeadChain } from '../../helpers/deadChain.js';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { seedCampaigns } from '../../helpers/seedCampaigns.js';
import { TEST_BACK_OFFICE_TOKEN } from '../../helpers/testConfig.js';

type ChainBody = {
  chainId: number;
  cursor: number | null;
  head: number | null;
  lagBlocks: number | null;
  lagSeconds: number | null;
  lagNote: string | null;
  consecutiveFailures: number;
};
type JobBody = {
  name: string;
  description: string;
  schedule: string;
  nextRunAt: string | null;
  attention: { status: string; reasons: string[] };
  blockCursor: boolean;
  lagNote: string | null;
  chains: ChainBody[];
};

describe('operations reads: /v4/internal/dependencies and the triage fields of /v4/internal/jobs', function () {
  let h: Harness;
  let request: () => ReturnType<typeof supertest>;
  const bo = { authorization: TEST_BACK_OFFICE_TOKEN };
  const jobs = async () =>
    new Map<string, JobBody>(
      (await request().get('/v4/internal/jobs').set(bo).expect(200)).body.jobs.map((j: JobBody) => [j.name, j]),
    );

  before(async function () {
    h = await createHarness({ chainIds: [31337] });
    await seedCampaigns({ chain: h.chains[0]!, perTx: 2, txs: 1 });
    for (const job of ['blocks', 'campaigns']) expect((await h.runJob(job)).status, job).to.equal('success');
    // As the scheduler runs it: one unit per chain.
    expect((await runJob(findJob('tokens')!, h.deps, { chainId: 31337 })).status).to.equal('success');
    // A node that is down: its chain's blocks unit fails for real (connection refused).
    const dead = await withDeadChain(h);
    const failed = await runJob(findJob('blocks')!, { ...h.deps, ...dead }, { chainId: DEAD_CHAIN_ID }).catch(
      (e: Error) => e,
    );
    expect(failed).to.be.instanceOf(Error);
    request = () =>
      supertest(
        h
          .createApp({
            config: dead.config,
            rpc: dead.rpc,
          })
          .callback(),
      );
  });

  after(async () => h?.close());

  it("reports every dependency's state, the unreachable RPC first in attention", async function () {
    const res = await request().get('/v4/internal/dependencies').set(bo).expect(200);
    expect(res.headers['cache-control']).to.equal('no-store');
    expect(res.body.postgres).to.include({ ok: true });
    expect(res.body.postgres.latencyMs).to.be.a('number');
    expect(res.body.elasticsearch).to.include({ ok: true });
    expect(res.body.elasticsearch.clusterStatus).to.be.oneOf(['green', 'yellow']);
    expect(res.body.elasticsearch.nodes).to.be.at.least(1);
    const live = res.body.chains.find((c: { id: number }) => c.id === 31337);
    const head = Number(await h.deps.rpc.get(31337)!.client.getBlockNumber());
    expect(live.rpc).to.include({ ok: true, head });
    expect(live.rpc.headTimestamp).to.equal(await getLatestTimestamp({ rpcUrl: h.chains[0]!.devnet.rpcUrl }));
    const dead = res.body.chains.find((c: { id: number }) => c.id === DEAD_CHAIN_ID);
    expect(dead.rpc.ok).to.equal(false);
    expect(dead.rpc.error).to.be.a('string').and.not.equal('');
    expect(res.body.attention).to.have.length(1);
    expect(res.body.attention[0]).to.include({ dependency: `rpc:${DEAD_CHAIN_ID}` });
    expect(res.body.attention[0].reason).to.match(/^Dead chain RPC unreachable: /);
  });

  it('gives each job its next run from the schedule the scheduler uses (an override included), none while paused', async function () {
    await request().put('/v4/internal/jobs/retention/schedule').set(bo).send({ cron: '0 0 3 * * *' }).expect(200);
    await request().post('/v4/internal/jobs/prices/pause').set(bo).expect(200);
    try {
      const byName = await jobs();
      const retention = byName.get('retention')!;
      expect(retention.schedule).to.equal('0 0 3 * * *');
      expect(retention.nextRunAt).to.equal(nextRuns('0 0 3 * * *', 1)[0]!.toISOString());
      const blocks = byName.get('blocks')!;
      expect(Date.parse(blocks.nextRunAt!) - Date.now(), 'every 5 s').to.be.within(-1000, 5000);
      expect(byName.get('prices')!.nextRunAt).to.equal(null);
      expect(byName.get('prices')!.attention.status).to.equal('paused');
      // The page's "Needs attention" list names it too, from the same listing (#44).
      const { attention } = (await request().get('/v4/internal/jobs').set(bo).expect(200)).body as {
        attention: { kind: string; subject: string; text: string }[];
      };
      expect(attention).to.deep.include({
        kind: 'paused',
        subject: 'job:prices',
        text: 'prices paused by an operator: scheduled runs are skipped',
      });
      expect(attention[0]).to.include({ kind: 'dependency', subject: `rpc:${DEAD_CHAIN_ID}` });
    } finally {
      await request().post('/v4/internal/jobs/prices/resume').set(bo).expect(200);
      await request().put('/v4/internal/jobs/retention/schedule').set(bo).send({ cron: null }).expect(200);
    }
  });

  it('says why tokens has no lag in blocks and gives its data age per chain instead of "?"', async function () {
    const tokens = (await jobs()).get('tokens')!;
    expect(tokens.blockCursor).to.equal(false);
    expect(tokens.lagNote).to.match(/^no block lag: /);
    const live = tokens.chains.find((c) => c.chainId === 31337)!;
    expect(live).to.include({ lagBlocks: null, cursor: null });
    expect(live.lagNote).to.equal(tokens.lagNote);
    expect(live.lagSeconds, 'seconds since its last success on the chain').to.be.within(0, 120);
  });

  it('marks the job whose unit fails on the dead chain as failing, naming the chain', async function () {
    const blocks = (await jobs()).get('blocks')!;
    expect(blocks.attention.status).to.equal('failing');
    expect(blocks.attention.reasons.join(' ')).to.match(new RegExp(`chain ${DEAD_CHAIN_ID}: 1 failed runs in a row`));
    expect(blocks.chains.find((c) => c.chainId === DEAD_CHAIN_ID)).to.include({
      consecutiveFailures: 1,
      cursor: null,
      lagNote: 'no block range completed on this chain yet',
    });
  });

  it('describes benchmark-rate as it is scheduled: hourly, fetching the daily overnight rate', async function () {
    const rate = (await jobs()).get('benchmark-rate')!;
    expect(rate.schedule).to.equal('0 7 * * * *');
    const [a, b] = nextRuns(rate.schedule, 2);
    expect(b!.getTime() - a!.getTime(), 'runs hourly').to.equal(3_600_000);
    expect(rate.description).to.match(/every hour/);
    expect(rate.description).not.to.match(/^Overnight/);
  });

  it('gives lag in blocks and chain seconds per chain, and calls a cursor far behind the head lagging', async function () {
    let campaigns = (await jobs()).get('campaigns')!;
    expect(campaigns.chains[0]).to.include({ chainId: 31337, lagBlocks: 0, lagSeconds: 0, lagNote: null });
    expect(campaigns.attention.status).to.equal('ok');
    // The chain moves 15 minutes on by 5 blocks; only the headers follow.
    const rpcUrl = h.chains[0]!.devnet.rpcUrl;
    await mine({ rpcUrl, blocks: 5, timestamp: (await getLatestTimestamp({ rpcUrl })) + 900 });
    expect((await h.runJob('blocks')).status).to.equal('success');
    campaigns = (await jobs()).get('campaigns')!;
    const [chain] = campaigns.chains;
    expect(chain).to.include({ lagBlocks: 5, lagNote: null });
    expect(chain!.lagSeconds).to.equal(904);
    expect(chain!.lagSeconds).to.be.above(LAG_ATTENTION_SECONDS);
    expect(campaigns.attention).to.deep.equal({
      status: 'lagging',
      reasons: ['chain 31337: 904 s behind the head (5 blocks)'],
    });
    const blocks = (await jobs()).get('blocks')!;
    expect(
      blocks.chains.find((c) => c.chainId === 31337),
      'against the node',
    ).to.include({
      lagBlocks: 0,
      lagSeconds: 0,
    });
  });
});
