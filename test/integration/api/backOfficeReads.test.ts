import { expect } from 'chai';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { storeRewardRows } from '../../helpers/rewardRows.js';
import { TEST_BACK_OFFICE_TOKEN } from '../../helpers/testConfig.js';

const BO = { authorization: TEST_BACK_OFFICE_TOKEN };
const CHAIN = 31337;
const TOKEN = `0x${'70'.repeat(20)}`;
const OTHER_TOKEN = `0x${'71'.repeat(20)}`;
const A = `0x${'a1'.repeat(20)}`;
const B = `0x${'b2'.repeat(20)}`;
const C1 = `0x${'c1'.repeat(32)}`;
const C2 = `0x${'c2'.repeat(32)}`;
const root = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

/**
 * Two verified roots (t=1000, t=2000) and a pending one (t=3000): in root 2, A earns 300 of TOKEN
 * (C1 200 + C2 100) and B 50 (C1); root 1 had A 100 (C1) only. A claimed 120, B claimed 60 (more
 * than its leaf, as after a reduced root).
 */
async function seedTrees(h: Harness): Promise<void> {
  const pg = h.deps.pg;
  const trees: [number, number, string, [string, string, string, number][]][] = [
    [1, 1000, 'verified', [[A, C1, TOKEN, 100]]],
    [
      2,
      2000,
      'verified',
      [
        [A, C1, TOKEN, 200],
        [A, C2, TOKEN, 100],
        [B, C1, TOKEN, 50],
        [B, C1, OTHER_TOKEN, 7],
      ],
    ],
    [3, 3000, 'pending', [[A, C1, TOKEN, 999]]],
  ];
  for (const [n, ts, status, rows] of trees) {
    await pg.query(
      "INSERT INTO roots (chain_id, root, ipfs_hash, end_of_dispute_period, block_number, block_hash, tx_hash, log_index, timestamp) VALUES ($1, $2, 'bafy', 0, $3, $2, $2, 0, $4)",
      [CHAIN, root(n), n, ts],
    );
    await pg.query('INSERT INTO reward_trees (chain_id, root, status) VALUES ($1, $2, $3)', [CHAIN, root(n), status]);
    await storeRewardRows(pg, { chainId: CHAIN, root: root(n), rows });
  }
  for (const [who, amount, i] of [
    [A, 120, 1],
    [B, 60, 2],
  ] as const) {
    await pg.query(
      'INSERT INTO claims (chain_id, recipient, token, amount, block_number, block_hash, tx_hash, log_index, timestamp) VALUES ($1, $2, $3, $4, 1, $5, $5, 0, 1)',
      [CHAIN, who, TOKEN, amount, root(100 + i)],
    );
  }
  await pg.query(
    "INSERT INTO tokens (id, chain_id, address, name, symbol, decimals) VALUES ('tok-1', $1, $2, 'Reward', 'RWD', 18), ('tok-2', $1, $3, 'Other', 'OTH', 6)",
    [CHAIN, TOKEN, OTHER_TOKEN],
  );
}

describe('back-office reads: historical diffs and reward-tree leaves', function () {
  let h: Harness;
  before(async function () {
    h = await createHarness({ chainIds: [CHAIN] });
    await seedTrees(h);
  });
  after(async () => h?.close());

  it('diffs a campaign between two dates over the last verified roots before them', async function () {
    const res = await h
      .request()
      .get(`/v4/historical/campaign/${C1}`)
      .query({ chainId: CHAIN, startDate: '1500', endDate: new Date(2_500_000).toISOString() })
      .set(BO)
      .expect(200);
    expect(res.body.startRoot).to.deep.equal({ root: root(1), timestamp: 1000 });
    expect(res.body.endRoot, 'the pending root 3 is skipped').to.deep.equal({ root: root(2), timestamp: 2000 });
    expect(
      res.body.breakdowns.map((b: Record<string, string>) => [
        b.recipient,
        b.rewardToken,
        b.startAmount,
        b.endAmount,
        b.diff,
      ]),
    ).to.deep.equal([
      [A, TOKEN, '100', '200', '100'],
      [B, TOKEN, '0', '50', '50'],
      [B, OTHER_TOKEN, '0', '7', '7'],
    ]);
    expect(res.body.count).to.equal(3);
    const past = await h
      .request()
      .get(`/v4/historical/campaign/${C1}`)
      .query({ chainId: CHAIN, startDate: '1500', endDate: '2500', page: 5, items: 2 })
      .set(BO)
      .expect(200);
    expect(past.body.breakdowns, 'a page past the end is empty').to.deep.equal([]);
    expect(past.body.count, 'and still counts every breakdown').to.equal(3);
  });

  it('diffs a recipient, with a null start root before the first one', async function () {
    const res = await h
      .request()
      .get(`/v4/historical/recipient/${A}`)
      .query({ chainId: CHAIN, startDate: '10', endDate: '2000' })
      .set(BO)
      .expect(200);
    expect(res.body.startRoot).to.equal(null);
    expect(res.body.breakdowns.map((b: Record<string, string>) => [b.campaignId, b.diff])).to.deep.equal([
      [C1, '200'],
      [C2, '100'],
    ]);
  });

  it('needs the back office, and refuses bad dates and ranges naming the field', async function () {
    await h
      .request()
      .get(`/v4/historical/recipient/${A}`)
      .query({ chainId: CHAIN, startDate: '10', endDate: '2000' })
      .expect(401);
    const bad = await h
      .request()
      .get(`/v4/historical/recipient/${A}`)
      .query({ chainId: CHAIN, startDate: 'yesterday', endDate: '2000' })
      .set(BO)
      .expect(400);
    expect(bad.body.errors[0].field).to.equal('startDate');
    const reversed = await h
      .request()
      .get(`/v4/historical/recipient/${A}`)
      .query({ chainId: CHAIN, startDate: '3000', endDate: '2000' })
      .set(BO)
      .expect(400);
    expect(reversed.body.errors[0].field).to.equal('endDate');
    await h
      .request()
      .get(`/v4/historical/recipient/${A}`)
      .query({ chainId: CHAIN, startDate: '1', endDate: '500' })
      .set(BO)
      .expect(404);
    const missing = await h
      .request()
      .get(`/v4/historical/campaign/${C1}`)
      .query({ chainId: CHAIN })
      .set(BO)
      .expect(400);
    expect(missing.body.errors.map((e: { field: string }) => e.field)).to.include.members(['startDate', 'endDate']);
  });

  it("lists the live root's leaves of a token with claimed amounts and a summary, sorted and paged", async function () {
    const res = await h
      .request()
      .get('/v4/diffs/leaves')
      .query({ chainId: CHAIN, tokenAddress: TOKEN })
      .set(BO)
      .expect(200);
    expect(res.body.root).to.equal(root(2));
    expect(res.body.leaves.map((l: Record<string, string>) => [l.recipient, l.amount, l.claimed])).to.deep.equal([
      [A, '300', '120'],
      [B, '50', '50'],
    ]);
    expect(res.body.summary).to.deep.equal({
      total: 2,
      totalAmount: '350',
      totalClaimed: '170',
      positiveAmount: '180',
      negativeAmount: '-10',
    });
    const byPending = await h
      .request()
      .get('/v4/diffs/leaves')
      .query({ chainId: CHAIN, tokenAddress: TOKEN, sort: 'pending', order: 'asc', items: 1 })
      .set(BO)
      .expect(200);
    expect(byPending.body.leaves.map((l: { recipient: string }) => l.recipient)).to.deep.equal([B]);
    expect(byPending.body.count).to.equal(2);
    await h
      .request()
      .get('/v4/diffs/leaves')
      .query({ chainId: CHAIN, tokenAddress: TOKEN, sort: 'nope' })
      .set(BO)
      .expect(400);
    await h.request().get('/v4/diffs/leaves').query({ chainId: CHAIN, tokenAddress: TOKEN }).expect(401);
  });

  it('splits leaves per campaign with pro-rata claims, and lists the tokens that have leaves', async function () {
    const res = await h
      .request()
      .get('/v4/diffs/leaf-breakdowns')
      .query({ chainId: CHAIN, tokenAddress: TOKEN, recipient: A })
      .set(BO)
      .expect(200);
    expect(res.body.breakdowns.map((b: Record<string, string>) => [b.campaignId, b.amount, b.claimed])).to.deep.equal([
      [C1, '200', '80'],
      [C2, '100', '40'],
    ]);
    const one = await h
      .request()
      .get('/v4/diffs/leaf-breakdowns')
      .query({ chainId: CHAIN, tokenAddress: TOKEN, campaignId: C2 })
      .set(BO)
      .expect(200);
    expect(one.body.count).to.equal(1);
    // Count and summary cover every matching breakdown, whatever the page: A's C1 200 (80 claimed) + C2 100 (40) + B's C1 50 (50).
    const whole = { total: 3, totalAmount: '350', totalClaimed: '170', positiveAmount: '180', negativeAmount: '0' };
    const first = await h
      .request()
      .get('/v4/diffs/leaf-breakdowns')
      .query({ chainId: CHAIN, tokenAddress: TOKEN, items: 1 })
      .set(BO)
      .expect(200);
    expect(first.body.breakdowns).to.have.length(1);
    expect([first.body.count, first.body.summary]).to.deep.equal([3, whole]);
    const past = await h
      .request()
      .get('/v4/diffs/leaf-breakdowns')
      .query({ chainId: CHAIN, tokenAddress: TOKEN, items: 2, page: 9 })
      .set(BO)
      .expect(200);
    expect([past.body.breakdowns, past.body.count, past.body.summary]).to.deep.equal([[], 3, whole]);
    const tokens = await h.request().get('/v4/diffs/leaf-tokens').query({ chainId: CHAIN }).set(BO).expect(200);
    expect(tokens.body.map((t: { symbol: string }) => t.symbol)).to.deep.equal(['OTH', 'RWD']);
    await h.request().get('/v4/diffs/leaf-tokens').query({ chainId: 999 }).set(BO).expect(404);
  });
});
