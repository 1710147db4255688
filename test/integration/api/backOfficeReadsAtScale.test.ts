import { expect } from 'chai';
import { serializeBreakdowns, serializeLeaves } from '../../../api/routes/diffs/serialize.js';
import type { BreakdownsQuery, LeavesQuery } from '../../../api/routes/diffs/schema.js';
import { serializeHistorical } from '../../../api/routes/historical/serialize.js';
import { oracleBreakdowns, oracleDiff, oracleLeaves } from '../../helpers/backOfficeOracles.js';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { storeRewardRows, type RewardRow } from '../../helpers/rewardRows.js';
import { TEST_BACK_OFFICE_TOKEN } from '../../helpers/testConfig.js';
import { tuplesReadBy } from '../../helpers/tuplesRead.js';
import { migrationPart, rowsRebuiltByBackfill } from '../../helpers/migrationBackfill.js';

type Hex = `0x${string}`;
const BO = { authorization: TEST_BACK_OFFICE_TOKEN };
const CHAIN = 31337;
const T1: Hex = `0x${'71'.repeat(20)}`;
const T2: Hex = `0x${'72'.repeat(20)}`;
const CA: Hex = `0x${'ca'.repeat(32)}`;
/** One campaign stored under two ids that differ in case (trees state ids as they like). */
const CB: Hex = `0x${'cb'.repeat(32)}`;
const CB_UPPER: Hex = `0x${'CB'.repeat(32)}`;
const CC: Hex = `0x${'cc'.repeat(32)}`;
const N = 6000;
const root = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
const addr = (i: number): Hex => `0x${(i + 1).toString(16).padStart(40, '0')}`;

/**
 * Tree `version` (1, 2 verified; 3 pending): N recipients of T1 (tree 2 drops every 50th from 7 and adds
 * 120), some of T2; breakdowns over CA, CB (half under CB_UPPER) and CC with many equal amounts (ties),
 * zero amounts, and every 97th leaf all zero. Each tree raises a tenth of the leaves.
 */
function treeRows(version: 1 | 2 | 3): RewardRow[] {
  const rows: RewardRow[] = [];
  for (let i = 0; i < N + 120; i++) {
    if (i >= N && version === 1) continue;
    if (version > 1 && i < N && i % 50 === 7) continue;
    const raise = (version > 1 && i % 10 === 3 ? 500 : 0) + (version > 2 && i % 10 === 4 ? 900 : 0);
    const zero = i % 97 === 0;
    rows.push([addr(i), CA, T1, zero ? 0 : ((i * 37) % 200) * 1000 + raise]);
    if (i % 3 === 0) rows.push([addr(i), i % 2 ? CB_UPPER : CB, T1, zero ? 0 : ((i * 11) % 50) * 100]);
    if (i % 5 === 0) rows.push([addr(i), CC, T1, zero || i % 10 === 0 ? 0 : 700 + raise]);
    if (i % 3 === 1 && version > 1) rows.push([addr(i), CA, T2, ((i * 13) % 40) * 10]);
  }
  return rows;
}

/** Claims of T1 against tree 2's leaves: over, under and exactly the leaf, some in two rows, some with no leaf. */
function claimRows(): [recipient: string, token: string, amount: bigint][] {
  const leaf = new Map<string, bigint>();
  for (const [r, , t, a] of treeRows(2)) if (t === T1) leaf.set(r, (leaf.get(r) ?? 0n) + BigInt(a));
  const claims: [string, string, bigint][] = [];
  for (let i = 0; i < N; i += 20) {
    const amount = leaf.get(addr(i)) ?? 0n;
    const claimed = i % 60 === 0 ? amount + 5000n : i % 60 === 20 ? amount / 3n : amount;
    if (i % 120 === 0) claims.push([addr(i), T1, claimed / 2n], [addr(i), T1, claimed - claimed / 2n]);
    else claims.push([addr(i), T1, claimed]);
  }
  for (let j = 0; j < 30; j++) claims.push([addr(N + 500 + j), T1, 1000n]);
  claims.push([addr(1), T2, 50n]);
  return claims;
}

async function seed(h: Harness): Promise<void> {
  const pg = h.deps.pg;
  for (const [n, status] of [
    [1, 'verified'],
    [2, 'verified'],
    [3, 'pending'],
  ] as const) {
    await pg.query(
      "INSERT INTO roots (chain_id, root, ipfs_hash, end_of_dispute_period, block_number, block_hash, tx_hash, log_index, timestamp) VALUES ($1, $2, 'bafy', 0, $3, $2, $2, 0, $4)",
      [CHAIN, root(n), n, n * 1000],
    );
    await pg.query('INSERT INTO reward_trees (chain_id, root, status) VALUES ($1, $2, $3)', [CHAIN, root(n), status]);
    await storeRewardRows(pg, { chainId: CHAIN, root: root(n), rows: treeRows(n) });
  }
  const claims = claimRows();
  await pg.query(
    `INSERT INTO claims (chain_id, recipient, token, amount, block_number, block_hash, tx_hash, log_index, timestamp)
     SELECT $1, c.recipient, c.token, c.amount, 1, '0x01', '0x' || lpad(to_hex(c.n::int), 64, '0'), 0, 1
     FROM unnest($2::text[], $3::text[], $4::numeric[]) WITH ORDINALITY c(recipient, token, amount, n)`,
    [CHAIN, claims.map((c) => c[0]), claims.map((c) => c[1]), claims.map((c) => c[2].toString())],
  );
  await pg.query(
    "INSERT INTO tokens (id, chain_id, address, name, symbol, decimals) VALUES ('tok-1', $1, $2, 'One', 'ONE', 18), ('tok-2', $1, $3, 'Two', 'TWO', 6)",
    [CHAIN, T1, T2],
  );
  // As autovacuum would have by then: the planner knows the tables' sizes.
  await pg.query('ANALYZE reward_leaf_versions, reward_breakdown_versions, claimed_totals, reward_campaign_totals');
}

/**
 * `oracle` answering each query from its whole ordered set, computed once per query without its page (the
 * full computation takes ~0.3 s here whatever the page): a page is a slice of it, the totals are the set's.
 */
function slicing<Q extends { page: number; items: number }, A extends { rows: unknown[] }>(
  oracle: (q: Q) => Promise<A>,
): (q: Q) => Promise<A> {
  const whole = new Map<string, Promise<A>>();
  return async (q) => {
    const key = JSON.stringify({ ...q, page: 0, items: 0 });
    let all = whole.get(key);
    if (!all) whole.set(key, (all = oracle({ ...q, page: 0, items: 1_000_000 })));
    const answer = await all;
    return { ...answer, rows: answer.rows.slice(q.page * q.items, (q.page + 1) * q.items) };
  };
}

const SORTS = ['amount', 'claimed', 'pending', 'recipient'] as const;
const ORDERS = ['desc', 'asc'] as const;
/** First, middle, last (tree 2 has 6,000 − 120 + 120 leaves of T1) and past the end. */
const PAGES = [
  [0, 100],
  [7, 100],
  [59, 100],
  [61, 100],
  [3, 1000],
] as const;

describe('back-office reads at a few thousand leaves: the same answers, bounded (#30)', function () {
  let h: Harness;
  before(async function () {
    h = await createHarness({ chainIds: [CHAIN] });
    await seed(h);
  });
  after(async () => h?.close());

  const leaves = async (q: LeavesQuery) => {
    const res = await h.request().get('/v4/diffs/leaves').query(q).set(BO).expect(200);
    return res.body;
  };
  const breakdowns = async (q: BreakdownsQuery) => {
    const res = await h.request().get('/v4/diffs/leaf-breakdowns').query(q).set(BO).expect(200);
    return res.body;
  };

  it('lists leaves in every sort, order and page, and for one recipient, as the full computation does', async function () {
    const queries: LeavesQuery[] = [];
    for (const sort of SORTS)
      for (const order of ORDERS)
        for (const [page, items] of PAGES) queries.push({ chainId: CHAIN, tokenAddress: T1, sort, order, page, items });
    for (const recipient of [addr(0), addr(20), addr(40), addr(1), addr(7), addr(N + 500)])
      queries.push({
        chainId: CHAIN,
        tokenAddress: T1,
        recipient,
        sort: 'pending',
        order: 'desc',
        page: 0,
        items: 100,
      });
    queries.push({ chainId: CHAIN, tokenAddress: T2, sort: 'claimed', order: 'desc', page: 0, items: 100 });
    const oracle = slicing((q: LeavesQuery) => oracleLeaves(h.deps.pg, q, root(2)));
    for (const q of queries)
      expect(await leaves(q), JSON.stringify(q)).to.deep.equal(serializeLeaves(root(2), q, await oracle(q)));
  });

  it('lists breakdowns in every sort, order and page, per campaign whatever the case it is stored in, and per recipient', async function () {
    const queries: BreakdownsQuery[] = [];
    for (const sort of SORTS)
      for (const order of ORDERS)
        for (const [page, items] of PAGES) queries.push({ chainId: CHAIN, tokenAddress: T1, sort, order, page, items });
    for (const campaignId of [CA, CB, CB_UPPER, CC, `0x${'dd'.repeat(32)}` as Hex])
      for (const sort of SORTS)
        queries.push({ chainId: CHAIN, tokenAddress: T1, campaignId, sort, order: 'desc', page: 1, items: 50 });
    for (const recipient of [addr(0), addr(20), addr(3), addr(7)])
      queries.push({ chainId: CHAIN, tokenAddress: T1, recipient, sort: 'claimed', order: 'asc', page: 0, items: 100 });
    const live = { root: root(2), timestamp: 2000 };
    const oracle = slicing((q: BreakdownsQuery) => oracleBreakdowns(h.deps.pg, q, root(2)));
    for (const q of queries)
      expect(await breakdowns(q), JSON.stringify(q)).to.deep.equal(serializeBreakdowns(live, q, await oracle(q)));
  });

  it('diffs a campaign stored under ids of either case, and a recipient, as the full computation does', async function () {
    const cases = [
      { by: 'campaign', key: CB, path: `/v4/historical/campaign/${CB_UPPER}`, dates: ['1500', '2500'] },
      { by: 'campaign', key: CC, path: `/v4/historical/campaign/${CC}`, dates: ['10', '2500'] },
      { by: 'recipient', key: addr(30), path: `/v4/historical/recipient/${addr(30)}`, dates: ['1500', '2500'] },
    ] as const;
    for (const c of cases)
      for (const [page, items] of [
        [0, 1000],
        [1, 300],
        [50, 300],
      ] as const) {
        const res = await h
          .request()
          .get(c.path)
          .query({ chainId: CHAIN, startDate: c.dates[0], endDate: c.dates[1], page, items })
          .set(BO)
          .expect(200);
        const startRoot = c.dates[0] === '10' ? null : { root: root(1), timestamp: 1000 };
        const endRoot = { root: root(2), timestamp: 2000 };
        const expected = await oracleDiff(
          h.deps.pg,
          { chainId: CHAIN, startRoot: startRoot?.root ?? null, endRoot: endRoot.root, by: c.by, key: c.key },
          page,
          items,
        );
        expect(res.body, `${c.path} page ${page}`).to.deep.equal(serializeHistorical(startRoot, endRoot, expected));
      }
  });

  it('keeps the count and sum of the breakdowns per token and campaign of every tree, as the backfill computes them', async function () {
    const pg = h.deps.pg;
    // Per stored tree: the latest reward_breakdown_totals row of each key at or before it, and the versions' own count.
    const rollup = (seq: number) =>
      pg
        .query(
          `SELECT token, campaign_id, breakdowns, amount::text FROM (SELECT DISTINCT ON (token, campaign_id) * FROM reward_breakdown_totals
             WHERE chain_id = $1 AND seq <= $2 ORDER BY token, campaign_id, seq DESC) t
           WHERE breakdowns <> 0 OR amount <> 0 ORDER BY token, campaign_id`,
          [CHAIN, seq],
        )
        .then((r) => r.rows);
    const counted = (seq: number) =>
      pg
        .query(
          `SELECT token, coalesce(campaign_id, '') AS campaign_id, count(*)::int AS breakdowns, sum(amount)::text AS amount
           FROM reward_breakdown_versions WHERE chain_id = $1 AND since_seq <= $2 AND (until_seq IS NULL OR until_seq > $2)
           GROUP BY GROUPING SETS ((token, campaign_id), (token)) ORDER BY 1, 2`,
          [CHAIN, seq],
        )
        .then((r) => r.rows);
    const seqs = (await pg.query<{ seq: number }>('SELECT seq::int AS seq FROM reward_trees ORDER BY seq')).rows;
    expect(seqs.map((r) => r.seq)).to.deep.equal([1, 2, 3]);
    for (const { seq } of seqs) expect(await rollup(seq), `tree ${seq}`).to.deep.equal(await counted(seq));
    const { ingested, rebuilt } = await rowsRebuiltByBackfill(pg, {
      clear: 'DELETE FROM reward_breakdown_totals',
      backfill: migrationPart('2026_12_03_04_reward_reads_at_scale.sql', 'INSERT INTO reward_breakdown_totals'),
      rows: (client) =>
        client.query('SELECT * FROM reward_breakdown_totals ORDER BY token, campaign_id, seq').then((r) => r.rows),
    });
    expect(rebuilt).to.deep.equal(ingested);
  });

  it('lists the tokens that have leaves in the live verified root', async function () {
    const res = await h.request().get('/v4/diffs/leaf-tokens').query({ chainId: CHAIN }).set(BO).expect(200);
    expect(res.body.map((t: { symbol: string }) => t.symbol)).to.deep.equal(['ONE', 'TWO']);
  });

  it('reads the leaves and breakdowns of those who claimed and of the page, not every one of the token', async function () {
    const read = (path: string, query: object) =>
      tuplesReadBy(h, ['reward_leaf_versions'], (r) => r.get(path).query(query).set(BO).expect(200));
    const q = { chainId: CHAIN, tokenAddress: T1 };
    // Some 6,700 versions of T1's leaves are valid up to tree 2 (the full computation reads them all); 300
    // recipients claimed (a version or two each); a page is 100.
    for (const query of [q, { ...q, sort: 'pending' }, { ...q, sort: 'claimed', order: 'asc' }])
      expect(await read('/v4/diffs/leaves', query), JSON.stringify(query)).to.be.below(2500);
    expect(await read('/v4/diffs/leaf-breakdowns', q)).to.be.below(2500);
    // And of some 9,000 breakdowns of T1 in tree 2, those of the page and of the claimers (the count is kept per tree).
    for (const query of [q, { ...q, sort: 'pending' }, { ...q, campaignId: CC }])
      expect(
        await tuplesReadBy(h, ['reward_breakdown_versions'], (r) =>
          r.get('/v4/diffs/leaf-breakdowns').query(query).set(BO).expect(200),
        ),
        JSON.stringify(query),
      ).to.be.below(2500);
  });

  it("reads one campaign's breakdowns for its history, not every breakdown of the chain", async function () {
    const rows = await tuplesReadBy(h, ['reward_breakdown_versions'], (r) =>
      r
        .get(`/v4/historical/campaign/${CC}`)
        .query({ chainId: CHAIN, startDate: '1500', endDate: '2500' })
        .set(BO)
        .expect(200),
    );
    // CC has about 1,200 breakdowns per tree, of some 13,000 per tree.
    expect(rows).to.be.below(4000);
  });
});
