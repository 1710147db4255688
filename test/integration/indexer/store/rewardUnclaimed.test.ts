import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { unclaimedOfCampaign } from '../../../../api/reads/rewardTotals.js';
import { upsertClaims } from '../../../../indexer/store/claims.js';
import { rollbackChain } from '../../../../indexer/store/rollback.js';
import { UNCLAIMED_TREES_KEPT } from '../../../../indexer/store/rewardUnclaimed.js';
import type { ClaimRow } from '../../../../indexer/transform/claims.js';
import { createPgPool, withTransaction, type PgPool } from '../../../../internal/pg.js';
import { resetDatabase } from '../../../helpers/database.js';
import { storeRewardRows, type RewardRow } from '../../../helpers/rewardRows.js';
import { TEST_DATABASE_URL } from '../../../helpers/testConfig.js';

const CHAIN = 31337;
const OTHER_CHAIN = 10;
const [T1, T2] = [`0x${'11'.repeat(20)}`, `0x${'22'.repeat(20)}`];
const [A, B, C] = [`0x${'a1'.repeat(32)}`, `0x${'b2'.repeat(32)}`, `0x${'c3'.repeat(32)}`];
const CAMPAIGNS = [A, B, C];
const root = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
const user = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;

/**
 * The trees of the scenario: leaves shared by campaigns, several reasons of one campaign in a leaf,
 * a leaf of 0, recipients joining, leaving and coming back, a breakdown moving between campaigns.
 */
const TREES: Record<number, RewardRow[]> = {
  1: [
    [user(1), A, T1, 100],
    [user(1), B, T1, 50],
    [user(2), A, T1, 33],
    [user(3), B, T2, 7],
    [user(3), C, T2, 13],
    [user(4), C, T1, 0],
  ],
  2: [
    [user(1), A, T1, 160],
    [user(1), B, T1, 50],
    [user(2), A, T1, 33],
    [user(3), C, T2, 20],
    [user(5), A, T2, 999],
    [user(5), C, T2, 1],
  ],
  3: [
    [user(1), A, T1, 160],
    [user(1), B, T1, 90],
    [user(3), C, T2, 20],
    [user(5), A, T2, 1200],
    [user(6), B, T1, 77],
  ],
  4: [
    [user(1), A, T1, 170],
    [user(1), B, T1, 90],
    [user(2), A, T1, 40],
    [user(3), C, T2, 25],
    [user(5), A, T2, 1200],
    [user(6), B, T1, 77],
  ],
};

describe('indexer/store/rewardUnclaimed: unclaimed amounts per campaign kept for the latest trees (#33)', function () {
  let db: PgPool;
  const q = async <T extends Record<string, unknown>>(sql: string, args: unknown[] = []) =>
    (await db.query<T>(sql, args)).rows;
  const store = async (n: number, chainId = CHAIN, rows = TREES[n]!) => {
    await db.query(
      "INSERT INTO reward_trees (chain_id, root, status) VALUES ($1, $2, 'verified') ON CONFLICT DO NOTHING",
      [chainId, root(n)],
    );
    await storeRewardRows(db, { chainId, root: root(n), rows });
  };
  const claim = (
    recipient: string,
    token: string,
    amount: number,
    block: number,
    tx: string,
    logIndex = 0,
  ): ClaimRow => ({
    chainId: CHAIN,
    recipient,
    token,
    amount: String(amount),
    blockNumber: block,
    blockHash: `0xb${block}`,
    txHash: tx,
    logIndex,
    timestamp: block,
  });
  const claims = (rows: ClaimRow[]) => withTransaction(db, (tx) => upsertClaims(tx, rows));
  const kept = async () =>
    (
      await q<{ seq: string }>('SELECT seq::text AS seq FROM reward_unclaimed_trees WHERE chain_id = $1 ORDER BY seq', [
        CHAIN,
      ])
    ).map((r) => r.seq);
  const seqOf = async (n: number) =>
    (
      await q<{ seq: string }>('SELECT seq::text AS seq FROM reward_trees WHERE chain_id = $1 AND root = $2', [
        CHAIN,
        root(n),
      ])
    )[0]!.seq;

  /** Recomputed from the trees as served (`reward_breakdowns`, `rewards`) and the claims themselves. */
  const recomputed = async (n: number) =>
    Object.fromEntries(
      (
        await q<{ campaign_id: string; unclaimed: string }>(
          `WITH claimed AS (SELECT recipient, token, sum(amount) AS claimed FROM claims WHERE chain_id = $1 GROUP BY 1, 2)
           SELECT b.campaign_id,
             sum(CASE WHEN l.amount = 0 THEN 0 ELSE trunc(b.amount * greatest(l.amount - coalesce(k.claimed, 0), 0) / l.amount) END)::text AS unclaimed
           FROM reward_breakdowns b JOIN rewards l USING (chain_id, root, recipient, token) LEFT JOIN claimed k USING (recipient, token)
           WHERE b.chain_id = $1 AND b.root = $2 GROUP BY 1`,
          [CHAIN, root(n)],
        )
      ).map((r) => [r.campaign_id, r.unclaimed]),
    );
  /** What the route reads for each campaign of the tree of root `n` (the kept rows, or the read-time sum). */
  const served = async (n: number) => {
    const seq = await seqOf(n);
    const out: Record<string, string> = {};
    for (const c of CAMPAIGNS) out[c] = await unclaimedOfCampaign(db, CHAIN, seq, c.toUpperCase().replace('0X', '0x'));
    return out;
  };
  /** The kept rows of a tree but those at 0 (a claim may leave one; absent means 0 too). */
  const keptRows = async (seq: string) =>
    Object.fromEntries(
      (
        await q<{ campaign_id: string; amount: string }>(
          'SELECT campaign_id, amount::text AS amount FROM reward_campaign_unclaimed WHERE chain_id = $1 AND seq = $2 AND amount <> 0',
          [CHAIN, seq],
        )
      ).map((r) => [r.campaign_id, r.amount]),
    );
  const expectAll = async (trees: number[], what: string) => {
    const keptSeqs = await kept();
    for (const n of trees) {
      const truth = await recomputed(n);
      const full = Object.fromEntries(CAMPAIGNS.map((c) => [c, truth[c] ?? '0']));
      expect(await served(n), `${what}: served for tree ${n}`).to.deep.equal(full);
      const seq = await seqOf(n);
      if (keptSeqs.includes(seq))
        expect(await keptRows(seq), `${what}: kept rows of tree ${n}`).to.deep.equal(
          Object.fromEntries(Object.entries(truth).filter(([, v]) => v !== '0')),
        );
    }
  };

  before(async function () {
    await resetDatabase(TEST_DATABASE_URL);
    db = createPgPool({ connectionString: TEST_DATABASE_URL, applicationName: 'test-reward-unclaimed' });
  });
  after(async () => db?.end());

  it('sums a first tree whole and keeps it with the claims that come after it', async function () {
    await store(1);
    expect(await kept()).to.deep.equal([await seqOf(1)]);
    await expectAll([1], 'tree 1, no claim');
    await claims([
      claim(user(1), T1, 60, 10, '0x01'),
      claim(user(3), T2, 20, 10, '0x01', 1), // the whole leaf
      claim(user(2), T1, 50, 11, '0x02'), // more than the leaf
    ]);
    await expectAll([1], 'tree 1, claims');
    expect(Object.values(await keptRows(await seqOf(1))).length, 'some rows kept').to.be.greaterThan(0);
  });

  it('moves the previous tree’s rows by the leaves a tree changed, and follows late, re-mined and rolled back claims', async function () {
    await store(2);
    expect(await kept()).to.deep.equal([await seqOf(1), await seqOf(2)]);
    await expectAll([1, 2], 'tree 2');
    await claims([claim(user(5), T2, 400, 20, '0x03'), claim(user(1), T1, 10, 21, '0x04')]);
    await expectAll([1, 2], 'late claims');
    // The same (tx, log index) re-mined with another recipient and amount.
    await claims([claim(user(3), T2, 1, 22, '0x04')]);
    await expectAll([1, 2], 're-mined claim');
    // A reorg takes back the claims above block 20.
    await withTransaction(db, (tx) => rollbackChain(tx, CHAIN, 20));
    await expectAll([1, 2], 'rolled back claims');
  });

  it(`keeps the latest ${UNCLAIMED_TREES_KEPT} trees; an older live tree is summed at read time`, async function () {
    await store(3);
    // Tree 3 said to have one leaf: tree 4, changing more than half of that, is summed whole (sumsWhole).
    await db.query('UPDATE reward_trees SET leaves = 1 WHERE chain_id = $1 AND root = $2', [CHAIN, root(3)]);
    await store(4);
    expect(await kept()).to.deep.equal([await seqOf(2), await seqOf(3), await seqOf(4)]);
    expect(await keptRows(await seqOf(1))).to.deep.equal({});
    await claims([claim(user(6), T1, 30, 30, '0x05')]);
    await expectAll([1, 2, 3, 4], 'trees 1–4');
  });

  it('builds a tree stored again under a new seq from the tree it replaces as latest', async function () {
    await store(2); // the root of tree 2 stored again: it is the latest now
    await expectAll([2, 3, 4], 'tree 2 stored again');
  });

  it('sums a tree whole when the previous one has no rows (claims truncated), and keeps chains apart', async function () {
    await db.query('TRUNCATE claims');
    expect(await kept()).to.deep.equal([]);
    await expectAll([2, 3, 4], 'claims truncated');
    await claims([claim(user(1), T1, 90, 40, '0x06')]);
    await store(5, OTHER_CHAIN, TREES[1]); // another chain's tree: this chain still has no kept tree
    expect(await kept()).to.deep.equal([]);
    TREES[6] = [...TREES[4]!, [user(7), A, T1, 5]];
    await store(6);
    expect(await kept()).to.deep.equal([await seqOf(6)]);
    await expectAll([4, 6], 'summed whole');
  });

  it('is rebuilt for the latest trees by the migration, as ingestion left it', async function () {
    const sql = readFileSync(
      new URL('../../../../sql/migrations/2026_12_03_02_reward_campaign_unclaimed.sql', import.meta.url),
      'utf8',
    );
    const backfill = sql.slice(sql.indexOf('INSERT INTO reward_unclaimed_trees'), sql.indexOf('-- Adds `deltas`'));
    const client = await db.connect();
    try {
      const rows = async () =>
        (
          await client.query(
            'SELECT chain_id, seq::text, campaign_id, amount::text FROM reward_campaign_unclaimed ORDER BY 1, 2, 3',
          )
        ).rows;
      // Trees 4 and 3 stored again: the three kept trees are the chain's latest three again.
      await store(4);
      await store(3);
      expect(await kept()).to.deep.equal([await seqOf(6), await seqOf(4), await seqOf(3)]);
      const ingested = await rows();
      await client.query('BEGIN');
      await client.query('DELETE FROM reward_campaign_unclaimed; DELETE FROM reward_unclaimed_trees');
      await client.query(backfill);
      expect(await rows()).to.deep.equal(ingested);
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });
});
