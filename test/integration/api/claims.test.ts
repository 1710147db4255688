import { expect } from 'chai';
import { createReferenceDemo, type ReferenceDemo } from './referenceDemo.js';

type Claim = {
  id: string;
  chainId: number;
  recipient: string;
  blockNumber: number;
  timestamp: number;
  token: string;
  campaignId: string | null;
  reason: string | null;
  root: string | null;
  amount: string;
  metadata: { txHash: string; breakdowns: { campaignId: string }[] };
  isLatest: boolean;
};

const CHAIN_ID = 31337;
/** Demo recipient #5: claimed against roots 2 and 3. */
const TWICE = '0x9965507d1a55bcc2695c58ba16fb37d819b0a4dc';

describe('/v4/claims on the seeded demo', function () {
  let demo: ReferenceDemo;
  let rows: { recipient: string; amount: string; tx_hash: string }[];
  let roots: string[];
  const get = (path: string, query: Record<string, unknown> = {}) => demo.h.request().get(path).query(query);
  const bad = async (path: string, query: Record<string, unknown>, field: string) => {
    const res = await get(path, query).expect(400);
    expect(res.body.errors.map((e: { field: string }) => e.field)).to.include(field);
  };

  before(async function () {
    this.timeout(600_000);
    demo = await createReferenceDemo();
    rows = (
      await demo.h.deps.pg.query(
        'SELECT recipient, amount::text AS amount, tx_hash FROM claims ORDER BY block_number DESC, log_index DESC',
      )
    ).rows;
    roots = (
      await demo.h.deps.pg.query('SELECT root FROM roots WHERE chain_id = $1 ORDER BY block_number, log_index', [
        CHAIN_ID,
      ])
    ).rows.map((r) => r.root);
    expect(rows).to.have.length(3);
  });

  after(async () => demo?.close());

  it('lists every claim newest first, attributed to the root live when mined, with and without trailing slash', async () => {
    for (const path of ['/v4/claims', '/v4/claims/']) {
      const res = await get(path).expect(200);
      expect(res.body.map((c: Claim) => [c.recipient, c.amount])).to.deep.equal(
        rows.map((r) => [r.recipient, r.amount]),
      );
    }
    const all: Claim[] = (await get('/v4/claims')).body;
    // Claims were sent right after roots 2 and 3 became live (mineUntilLive).
    expect(all.map((c) => c.root)).to.deep.equal([roots[2], roots[1], roots[1]]);
    expect(
      all.every((c) => c.chainId === CHAIN_ID && c.metadata.breakdowns.length === 2 && c.campaignId === null),
    ).to.equal(true);
    // Newest first: #5 against root 3, then root 2's claim tx (#6 logged after #5, so listed first).
    expect(all.map((c) => c.isLatest)).to.deep.equal([true, true, false]);
  });

  it('filters on chainId, chainIds, recipient, token, root and campaignId', async () => {
    const all: Claim[] = (await get('/v4/claims')).body;
    expect((await get('/v4/claims', { chainId: CHAIN_ID })).body).to.have.length(3);
    expect((await get('/v4/claims', { chainId: 1 })).body).to.deep.equal([]);
    expect((await get('/v4/claims', { chainIds: String(CHAIN_ID) })).body).to.have.length(3);
    expect((await get('/v4/claims', { recipient: TWICE })).body.map((c: Claim) => c.recipient)).to.deep.equal([
      TWICE,
      TWICE,
    ]);
    expect((await get('/v4/claims', { recipient: '0x000000000000000000000000000000000000dead' })).body).to.deep.equal(
      [],
    );
    expect((await get('/v4/claims', { token: all[0]!.token })).body).to.have.length(3);
    expect((await get('/v4/claims', { token: '0x000000000000000000000000000000000000dead' })).body).to.deep.equal([]);
    expect((await get('/v4/claims', { root: roots[1] })).body).to.have.length(2);
    expect((await get('/v4/claims', { root: roots[0] })).body).to.deep.equal([]);
    const campaignId = all[0]!.metadata.breakdowns[0]!.campaignId;
    const byCampaign: Claim[] = (await get('/v4/claims', { campaignId })).body;
    expect(byCampaign.length).to.be.greaterThan(0);
    expect(byCampaign.every((c) => c.metadata.breakdowns.some((b) => b.campaignId === campaignId))).to.equal(true);
    expect((await get('/v4/claims', { campaignId: `0x${'ab'.repeat(32)}` })).body).to.deep.equal([]);
    expect((await get('/v4/claims', { items: 1, page: 1 })).body.map((c: Claim) => c.id)).to.deep.equal([all[1]!.id]);
  });

  it('rejects malformed filters naming the field', async () => {
    await bad('/v4/claims', { chainId: 'x' }, 'chainId');
    await bad('/v4/claims', { chainIds: 'x' }, 'chainIds.0');
    await bad('/v4/claims', { chainIds: '424242' }, 'chainIds');
    await bad('/v4/claims', { recipient: '0x12' }, 'recipient');
    await bad('/v4/claims', { token: 'abc' }, 'token');
    await bad('/v4/claims', { root: '0x12' }, 'root');
    await bad('/v4/claims', { campaignId: '0x12' }, 'campaignId');
    await bad('/v4/claims', { items: 0 }, 'items');
  });

  it('serves an address history, 400 on a bad address', async () => {
    const res = await get(`/v4/claims/history/${TWICE}/`, { chainIds: CHAIN_ID }).expect(200);
    expect(res.body).to.have.length(2);
    expect((await get('/v4/claims/history/0x000000000000000000000000000000000000dead')).body).to.deep.equal([]);
    await bad('/v4/claims/history/0xnope', {}, 'address');
    await bad(`/v4/claims/history/${TWICE}`, { chainIds: '1' }, 'chainIds');
  });

  it('serves the latest compact claims with the claims job watermark', async () => {
    const res = await get('/v4/claims/latest').expect(200);
    const chain = res.body[String(CHAIN_ID)];
    expect(chain.claims.map((c: { txHash: string; amount: string }) => [c.txHash, c.amount])).to.deep.equal(
      rows.map((r) => [r.tx_hash, r.amount]),
    );
    expect(chain.etlWatermark.lastTimestamp).to.be.a('number');
    expect(Date.parse(chain.etlWatermark.updatedAt)).to.be.greaterThan(0);
    await bad('/v4/claims/latest/', { chainIds: 'zz' }, 'chainIds.0');
  });

  it('reports the claims source status against the chain head', async () => {
    const res = await get('/v4/claims/status/', { chainIds: CHAIN_ID }).expect(200);
    const [source] = res.body[String(CHAIN_ID)].sources;
    const cursor = (
      await demo.h.deps.pg.query(`SELECT block_number::int AS n FROM cursors WHERE job = 'claims' AND chain_id = $1`, [
        CHAIN_ID,
      ])
    ).rows[0].n;
    expect(source).to.include({ chainId: CHAIN_ID, lastFetchedBlock: cursor, claimCount: 3 });
    expect(source.currentBlock).to.be.at.least(cursor);
    expect(source.blockDifference).to.equal(source.currentBlock - cursor);
    expect(source.timeBehind).to.be.a('number');
    await bad('/v4/claims/status', { chainIds: '5' }, 'chainIds');
  });

  it('counts claims per chain and in total', async () => {
    expect((await get('/v4/claims/count', { chainId: CHAIN_ID }).expect(200)).body).to.equal(3);
    expect((await get('/v4/claims/count/', { chainId: 1 }).expect(200)).body).to.equal(0);
    expect((await get('/v4/claims/count/total').expect(200)).body).to.equal(3);
    await bad('/v4/claims/count', {}, 'chainId');
    await bad('/v4/claims/count', { chainId: 'x' }, 'chainId');
  });
});
