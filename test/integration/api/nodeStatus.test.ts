import type { NodeStatusItem } from '../../../api/routes/node/indexingState.js';
import { expect } from 'chai';
import supertest from 'supertest';
import { getLatestTimestamp } from '../../../contracts/actions.js';
import { createDevnetClients } from '../../../contracts/clients.js';
import { mine } from '../../../contracts/time.js';
import { DEAD_CHAIN_ID, withDeadChain } from '../../helpers/deadChain.js';
import { eventually } from '../../helpers/eventually.js';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { seedCampaigns } from '../../helpers/seedCampaigns.js';

type Item = NodeStatusItem;
type Status = Record<string, { chainId: number; nodeError: string | null; protocols: Item[] }>;

/**
 * GET /v4/node/status, /v4/node/last-block and /v4/etl-health (#46, the hosted shapes) against a real
 * devnet whose blocks and campaigns jobs ran, plus a chain whose node is down (connection refused).
 */
describe('GET /v4/node/status, /v4/node/last-block, /v4/etl-health: indexing state in the hosted shapes', function () {
  let h: Harness;
  let request: () => ReturnType<typeof supertest>;
  let seedBlock: number;
  const chain = () => h.chains[0]!;
  const publicClient = () =>
    createDevnetClients({ rpcUrl: chain().devnet.rpcUrl, chainId: chain().devnet.chainId }).publicClient;

  before(async function () {
    h = await createHarness({ chainIds: [31337] });
    seedBlock = (await seedCampaigns({ chain: chain(), perTx: 1, txs: 1 })).blocks[0]!;
    for (const job of ['blocks', 'campaigns']) expect((await h.runJob(job)).status, job).to.equal('success');
    const dead = await withDeadChain(h);
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

  it("gives each chain its node's head and each job's cursor against it; a node that is down costs only its chain", async function () {
    const before = Number(await publicClient().getBlockNumber());
    const res = await request().get('/v4/node/status').expect(200);
    const after = Number(await publicClient().getBlockNumber());
    expect(res.headers['cache-control']).to.equal('no-store');
    const body = res.body as Status;
    expect(Object.keys(body).sort()).to.deep.equal([String(DEAD_CHAIN_ID), '31337'].sort());
    const live = body['31337']!;
    expect(live.nodeError).to.equal(null);
    expect(live.protocols.map((p) => p.protocolId).sort()).to.deep.equal(['blocks', 'campaigns']);
    const startBlock = h.config.chains[0]!.startBlock;
    for (const p of live.protocols) {
      expect(p.currentBlock).to.be.within(before, after);
      expect(p).to.include({ protocol: null, chainId: 31337, source: 'cursors', nodeCount: 1 });
      expect(p.oldestBlock).to.equal(p.lastFetchedBlock);
      expect(p.blockDifference).to.equal(p.currentBlock! - p.lastFetchedBlock);
      expect(p.totalBlockRange).to.equal(p.currentBlock! - startBlock);
      // Chain time between the cursor's block and the head, both read from the node directly.
      const [cursorBlock, headBlock] = await Promise.all([
        publicClient().getBlock({ blockNumber: BigInt(p.lastFetchedBlock) }),
        publicClient().getBlock({ blockNumber: BigInt(p.currentBlock!) }),
      ]);
      expect(p.timeBehind).to.equal(Number(headBlock.timestamp - cursorBlock.timestamp));
    }
    const campaigns = live.protocols.find((p) => p.protocolId === 'campaigns')!;
    expect(campaigns.lastFetchedBlock, 'the campaigns job read past the creation').to.be.at.least(seedBlock);
    const dead = body[String(DEAD_CHAIN_ID)]!;
    expect(dead.protocols).to.deep.equal([]);
    expect(dead.nodeError)
      .to.be.a('string')
      .and.match(new RegExp(`chain ${DEAD_CHAIN_ID}`));
    expect(dead.nodeError, 'no RPC URL leaks').to.not.match(/127\.0\.0\.1/);
  });

  it('follows the head as the chain moves on while the jobs stand still', async function () {
    const first = (await request().get('/v4/node/status').expect(200)).body as Status;
    const campaigns0 = first['31337']!.protocols.find((p) => p.protocolId === 'campaigns')!;
    await mine({ rpcUrl: chain().devnet.rpcUrl, blocks: 5 });
    const head = Number(await publicClient().getBlockNumber());
    // Each request() is an app of its own (no shared computation); the RPC client may still answer its cached head.
    const campaigns = await eventually(
      async () => {
        const body = (await request().get('/v4/node/status').expect(200)).body as Status;
        const read = body['31337']!.protocols.find((p) => p.protocolId === 'campaigns')!;
        expect(read.currentBlock).to.equal(head);
        return read;
      },
      { timeoutMs: 10_000, intervalMs: 100, what: 'the new head read' },
    );
    expect(campaigns.lastFetchedBlock).to.equal(campaigns0.lastFetchedBlock);
    expect(campaigns.blockDifference).to.equal(campaigns0.blockDifference! + (head - campaigns0.currentBlock!));
  });

  it("GET /v4/node/last-block: a job's cursor, the most advanced without protocol, null where none ran", async function () {
    const status = (await request().get('/v4/node/status').expect(200)).body as Status;
    const byJob = new Map(status['31337']!.protocols.map((p) => [p.protocolId, p.lastFetchedBlock]));
    const campaigns = await request().get('/v4/node/last-block').query({ chainId: 31337, protocol: 'campaigns' });
    expect(campaigns.status).to.equal(200);
    expect(campaigns.body).to.deep.equal({
      protocol: 'campaigns',
      chainId: 31337,
      lastFetchedBlockNumber: byJob.get('campaigns'),
      source: 'cursors',
    });
    const any = (await request().get('/v4/node/last-block/').query({ chainId: 31337 }).expect(200)).body;
    expect(any.lastFetchedBlockNumber).to.equal(Math.max(...byJob.values()));
    const none = await request().get('/v4/node/last-block').query({ chainId: DEAD_CHAIN_ID }).expect(200);
    expect(none.text).to.equal('null');
    const claims = await request().get('/v4/node/last-block').query({ chainId: 31337, protocol: 'claims' }).expect(200);
    expect(claims.text, 'the claims job never ran').to.equal('null');
  });

  it('refuses bad input with a 400 naming the field', async function () {
    const cases: [Record<string, unknown>, string][] = [
      [{ chainId: 12345 }, 'chainId'],
      [{}, 'chainId'],
      [{ chainId: 31337, protocol: 'uniswap' }, 'protocol'],
      [{ chainId: 31337, extra: 1 }, 'extra'],
    ];
    for (const [query, field] of cases) {
      const res = await request().get('/v4/node/last-block').query(query).expect(400);
      expect(res.headers['content-type']).to.match(/application\/problem\+json/);
      expect(JSON.stringify(res.body), JSON.stringify(query)).to.include(field);
    }
    const etl = await request().get('/v4/etl-health').query({ maxAgeMinutes: 0 }).expect(400);
    expect(JSON.stringify(etl.body)).to.include('maxAgeMinutes');
  });

  it('GET /v4/etl-health: success while the jobs keep up; 503 naming the trailing job once it trails the headers by more than the limit', async function () {
    const cursors = async () =>
      (await h.deps.pg.query<{ n: number }>('SELECT count(*)::int AS n FROM cursors WHERE chain_id = 31337')).rows[0]!
        .n;
    const ok = await h.request().get('/v4/etl-health').expect(200);
    expect(ok.headers['cache-control']).to.equal('no-store');
    expect(ok.body).to.deep.equal({ success: true, filesChecked: await cursors() });
    // Three hours of chain time pass; only the blocks job runs: the campaigns cursor trails the headers.
    const now = await getLatestTimestamp({ rpcUrl: chain().devnet.rpcUrl });
    await mine({ rpcUrl: chain().devnet.rpcUrl, blocks: 2, timestamp: now + 3 * 3600 });
    expect((await h.runJob('blocks')).status).to.equal('success');
    const stale = await h.request().get('/v4/etl-health').expect(503);
    expect(stale.body.success).to.equal(false);
    expect(stale.body.filesChecked).to.equal(await cursors());
    expect(stale.body.staleFile).to.include({ prefix: 'campaigns', name: 'chain-31337' });
    expect(stale.body.staleFile.ageMinutes).to.be.within(180, 181);
    expect(stale.body.staleFiles).to.deep.equal([stale.body.staleFile]);
    // A larger limit tolerates it; the campaigns job catching up clears it.
    await h.request().get('/v4/etl-health').query({ maxAgeMinutes: 240 }).expect(200);
    expect((await h.runJob('campaigns')).status).to.equal('success');
    expect((await h.request().get('/v4/etl-health/').expect(200)).body.success).to.equal(true);
  });
});
