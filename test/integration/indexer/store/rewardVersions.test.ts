import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';
import { storeTreeEntries } from '../../../../indexer/store/stageRewardTree.js';
import { createPgPool, withTransaction, type PgPool } from '../../../../internal/pg.js';
import { resetDatabase } from '../../../helpers/database.js';
import { TEST_DATABASE_URL } from '../../../helpers/testConfig.js';

const CHAIN = 31337;
const TOKEN = `0x${'22'.repeat(20)}`;
const CAMPAIGN = `0x${'c1'.repeat(32)}`;
const root = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
const user = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;

type Tree = Record<string, number>;

/** Leaves and one breakdown each (the whole amount to CAMPAIGN) of a tree {recipient: amount}. */
const entriesOf = (tree: Tree) => ({
  leaves: Object.entries(tree).map(([recipient, amount]) => ({ recipient, token: TOKEN, amount: String(amount) })),
  breakdowns: Object.entries(tree).map(([recipient, amount]) => ({
    recipient,
    token: TOKEN,
    campaignId: CAMPAIGN,
    reason: 'holder',
    amount: String(amount),
  })),
});

describe('indexer/store/rewardTrees: reward amounts stored by change (#30)', function () {
  let db: PgPool;
  const store = async (n: number, tree: Tree) => {
    await db.query(
      "INSERT INTO reward_trees (chain_id, root, status) VALUES ($1, $2, 'verified') ON CONFLICT DO NOTHING",
      [CHAIN, root(n)],
    );
    await withTransaction(db, (tx) => storeTreeEntries(tx, { chainId: CHAIN, root: root(n), ...entriesOf(tree) }));
  };
  const served = async (n: number, table: 'rewards' | 'reward_breakdowns') =>
    Object.fromEntries(
      (
        await db.query<{ recipient: string; amount: string }>(
          `SELECT recipient, amount::text AS amount FROM ${table} WHERE chain_id = $1 AND root = $2 ORDER BY recipient`,
          [CHAIN, root(n)],
        )
      ).rows.map((r) => [r.recipient, Number(r.amount)]),
    );
  const versions = async (table: string) =>
    Number((await db.query(`SELECT count(*) AS n FROM ${table} WHERE chain_id = $1`, [CHAIN])).rows[0].n);

  before(async function () {
    await resetDatabase(TEST_DATABASE_URL);
    db = createPgPool({ connectionString: TEST_DATABASE_URL, applicationName: 'test-reward-versions' });
  });
  after(async () => db?.end());

  it('serves every stored tree exactly as it was, writing only the leaves that changed', async function () {
    const trees: Tree[] = [
      { [user(1)]: 10, [user(2)]: 20, [user(3)]: 30 },
      // user 1 unchanged, user 2 grew, user 3 left the tree, user 4 joined
      { [user(1)]: 10, [user(2)]: 25, [user(4)]: 40 },
      // the same again: nothing to write
      { [user(1)]: 10, [user(2)]: 25, [user(4)]: 40 },
      // user 3 back with its old amount: a new version (the old one is closed)
      { [user(1)]: 10, [user(2)]: 25, [user(3)]: 30, [user(4)]: 40 },
    ];
    const written: number[] = [];
    for (const [i, tree] of trees.entries()) {
      const before = await versions('reward_leaf_versions');
      await store(i + 1, tree);
      written.push((await versions('reward_leaf_versions')) - before);
    }
    expect(written, 'leaf versions written per tree').to.deep.equal([3, 2, 0, 1]);
    expect(await versions('reward_breakdown_versions')).to.equal(6);
    for (const [i, tree] of trees.entries()) {
      expect(await served(i + 1, 'rewards'), `rewards of tree ${i + 1}`).to.deep.equal(tree);
      expect(await served(i + 1, 'reward_breakdowns'), `breakdowns of tree ${i + 1}`).to.deep.equal(tree);
    }
    const open = await db.query(
      'SELECT recipient, amount::int AS amount FROM reward_leaf_versions WHERE chain_id = $1 AND until_seq IS NULL ORDER BY recipient',
      [CHAIN],
    );
    expect(
      Object.fromEntries(open.rows.map((r) => [r.recipient, r.amount])),
      'open versions: the latest tree',
    ).to.deep.equal(trees[3]);
  });

  it('stores a tree again (after a rollback, say) under a new seq without touching the others', async function () {
    await store(1, { [user(1)]: 11 });
    expect(await served(1, 'rewards')).to.deep.equal({ [user(1)]: 11 });
    expect(await served(2, 'rewards')).to.deep.equal({ [user(1)]: 10, [user(2)]: 25, [user(4)]: 40 });
  });

  it('stores a leaf again when only its breakdowns changed, and only the breakdowns that changed', async function () {
    const OTHER = `0x${'c2'.repeat(32)}`;
    const seqOf = async (n: number) =>
      (await db.query('SELECT seq FROM reward_trees WHERE chain_id = $1 AND root = $2', [CHAIN, root(n)])).rows[0].seq;
    const openBreakdowns = async () =>
      (
        await db.query<{ campaign_id: string; amount: string; since_seq: string }>(
          `SELECT campaign_id, amount::text AS amount, since_seq FROM reward_breakdown_versions
           WHERE chain_id = $1 AND recipient = $2 AND until_seq IS NULL ORDER BY campaign_id`,
          [CHAIN, user(5)],
        )
      ).rows;
    const split = (n: number, parts: [string, string, number][]) =>
      withTransaction(db, async (tx) => {
        await tx.query("INSERT INTO reward_trees (chain_id, root, status) VALUES ($1, $2, 'verified')", [
          CHAIN,
          root(n),
        ]);
        await storeTreeEntries(tx, {
          chainId: CHAIN,
          root: root(n),
          leaves: [{ recipient: user(5), token: TOKEN, amount: '100' }],
          breakdowns: parts.map(([campaignId, reason, amount]) => ({
            recipient: user(5),
            token: TOKEN,
            campaignId,
            reason,
            amount: String(amount),
          })),
        });
      });
    await split(20, [
      [CAMPAIGN, 'holder', 60],
      [OTHER, 'holder', 40],
    ]);
    const first = await seqOf(20);
    // The same breakdowns in another order: the same leaf, nothing written.
    const leavesBefore = await versions('reward_leaf_versions');
    await split(21, [
      [OTHER, 'holder', 40],
      [CAMPAIGN, 'holder', 60],
    ]);
    expect(await versions('reward_leaf_versions'), 'breakdowns reordered').to.equal(leavesBefore);
    // 10 moved from one campaign to the other, the leaf's amount the same.
    await split(22, [
      [CAMPAIGN, 'holder', 50],
      [OTHER, 'holder', 50],
    ]);
    const moved = await seqOf(22);
    expect(await versions('reward_leaf_versions'), 'a new leaf version').to.equal(leavesBefore + 1);
    expect(await openBreakdowns()).to.deep.equal([
      { campaign_id: CAMPAIGN, amount: '50', since_seq: moved },
      { campaign_id: OTHER, amount: '50', since_seq: moved },
    ]);
    // Only one campaign's part changes: the other breakdown version stays open.
    await split(23, [
      [CAMPAIGN, 'holder', 50],
      [OTHER, 'holder', 50],
      [OTHER, 'referral', 0],
    ]);
    const added = await seqOf(23);
    expect((await openBreakdowns()).map((b) => b.since_seq)).to.deep.equal([moved, moved, added]);
    const { rows } = await db.query(
      `SELECT root, campaign_id, reason, amount::int AS amount FROM reward_breakdowns
       WHERE chain_id = $1 AND recipient = $2 AND root = $3 ORDER BY campaign_id, reason`,
      [CHAIN, user(5), root(20)],
    );
    expect(
      rows.map((r) => [r.campaign_id, r.amount]),
      'the first tree as it was',
    ).to.deep.equal([
      [CAMPAIGN, 60],
      [OTHER, 40],
    ]);
    expect(first).to.not.equal(moved);
  });

  it('rewrites a leaf version stored without a digest once, keeping its unchanged breakdowns', async function () {
    await store(30, { [user(6)]: 60 });
    await db.query('UPDATE reward_leaf_versions SET digest = NULL WHERE chain_id = $1 AND until_seq IS NULL', [CHAIN]);
    const breakdownsBefore = await versions('reward_breakdown_versions');
    const leavesBefore = await versions('reward_leaf_versions');
    await store(31, { [user(6)]: 60 });
    expect(await versions('reward_leaf_versions'), 'rewritten once with its digest').to.equal(leavesBefore + 1);
    expect(await versions('reward_breakdown_versions'), 'breakdowns unchanged').to.equal(breakdownsBefore);
    await store(32, { [user(6)]: 60 });
    expect(await versions('reward_leaf_versions'), 'then unchanged').to.equal(leavesBefore + 1);
    expect(await served(31, 'rewards')).to.deep.equal({ [user(6)]: 60 });
    expect(await served(30, 'reward_breakdowns')).to.deep.equal({ [user(6)]: 60 });
  });

  it('keeps chains apart', async function () {
    await db.query("INSERT INTO reward_trees (chain_id, root, status) VALUES (1, $1, 'verified')", [root(9)]);
    await withTransaction(db, (tx) =>
      storeTreeEntries(tx, { chainId: 1, root: root(9), ...entriesOf({ [user(7)]: 7 }) }),
    );
    expect(await served(1, 'rewards')).to.deep.equal({ [user(1)]: 11 });
    const other = await db.query('SELECT recipient FROM rewards WHERE chain_id = 1 AND root = $1', [root(9)]);
    expect(other.rows.map((r) => r.recipient)).to.deep.equal([user(7)]);
  });
  it('keeps per-tree totals of each campaign and token equal to the tree sums, recipients counted once per campaign (#33)', async function () {
    const chainId = 777;
    const [A, B] = [`0x${'a1'.repeat(32)}`, `0x${'b2'.repeat(32)}`];
    const OTHER = `0x${'33'.repeat(20)}`;
    type Row = [recipient: number, token: string, campaign: string, reason: string, amount: number];
    const trees: Row[][] = [
      [
        [1, TOKEN, A, 'x', 10],
        [1, TOKEN, A, 'y', 5],
        [2, TOKEN, B, 'x', 7],
        [3, OTHER, A, 'x', 4],
      ],
      // 1 moves one reason to B, 2 leaves, 4 joins A twice, 3 unchanged
      [
        [1, TOKEN, A, 'x', 10],
        [1, TOKEN, B, 'y', 6],
        [3, OTHER, A, 'x', 4],
        [4, TOKEN, A, 'x', 1],
        [4, TOKEN, A, 'y', 2],
      ],
      // 1 leaves A altogether, 3 leaves the tree
      [
        [1, TOKEN, B, 'y', 16],
        [4, TOKEN, A, 'x', 1],
        [4, TOKEN, A, 'y', 3],
      ],
    ];
    for (const [i, rows] of trees.entries()) {
      const leaves = new Map<string, { recipient: string; token: string; amount: number }>();
      for (const [r, token, , , amount] of rows) {
        const key = `${user(r)}-${token}`;
        const leaf = leaves.get(key) ?? { recipient: user(r), token, amount: 0 };
        leaf.amount += amount;
        leaves.set(key, leaf);
      }
      await db.query("INSERT INTO reward_trees (chain_id, root, status) VALUES ($1, $2, 'verified')", [
        chainId,
        root(100 + i),
      ]);
      await withTransaction(db, (tx) =>
        storeTreeEntries(tx, {
          chainId,
          root: root(100 + i),
          leaves: [...leaves.values()].map((l) => ({ ...l, amount: String(l.amount) })),
          breakdowns: rows.map(([r, token, campaignId, reason, amount]) => ({
            recipient: user(r),
            token,
            campaignId,
            reason,
            amount: String(amount),
          })),
        }),
      );
    }
    const seqs = await db.query<{ root: string; seq: string }>(
      'SELECT root, seq::text AS seq FROM reward_trees WHERE chain_id = $1 ORDER BY seq',
      [chainId],
    );
    for (const [i, t] of seqs.rows.entries()) {
      const rows = trees[i]!;
      const expected: Record<string, [number, number]> = {};
      for (const campaign of [A, B])
        for (const token of [TOKEN, OTHER]) {
          const mine = rows.filter((r) => r[2] === campaign && r[1] === token);
          if (mine.length)
            expected[`${campaign}-${token}`] = [
              mine.reduce((s, r) => s + r[4], 0),
              new Set(mine.map((r) => r[0])).size,
            ];
        }
      const stored = await db.query<{ key: string; amount: number; recipients: number }>(
        `SELECT DISTINCT ON (campaign_id, token) campaign_id || '-' || token AS key, amount::int AS amount, recipients
         FROM reward_campaign_totals WHERE chain_id = $1 AND seq <= $2 ORDER BY campaign_id, token, seq DESC`,
        [chainId, t.seq],
      );
      expect(
        Object.fromEntries(
          stored.rows.filter((r) => r.amount || r.recipients).map((r) => [r.key, [r.amount, r.recipients]]),
        ),
        `campaign totals of tree ${i + 1}`,
      ).to.deep.equal(expected);
      const tokens = await db.query<{ token: string; amount: number; recipients: number }>(
        `SELECT DISTINCT ON (token) token, amount::int AS amount, recipients FROM reward_token_totals
         WHERE chain_id = $1 AND seq <= $2 ORDER BY token, seq DESC`,
        [chainId, t.seq],
      );
      const expectedTokens: Record<string, [number, number]> = {};
      for (const token of [TOKEN, OTHER]) {
        const mine = rows.filter((r) => r[1] === token);
        if (mine.length)
          expectedTokens[token] = [mine.reduce((s, r) => s + r[4], 0), new Set(mine.map((r) => r[0])).size];
      }
      expect(
        Object.fromEntries(
          tokens.rows.filter((r) => r.amount || r.recipients).map((r) => [r.token, [r.amount, r.recipients]]),
        ),
        `token totals of tree ${i + 1}`,
      ).to.deep.equal(expectedTokens);
    }
  });
});

describe('sql/migrations/2026_11_28_01_reward_versions: existing full copies become versions', function () {
  let client: pg.Client;
  const migrations = readdirSync(new URL('../../../../sql/migrations/', import.meta.url))
    .filter((f) => f.endsWith('.sql'))
    .sort();
  const run = (file: string) =>
    client.query(readFileSync(new URL(`../../../../sql/migrations/${file}`, import.meta.url), 'utf8'));

  before(async function () {
    await resetDatabase(TEST_DATABASE_URL);
    client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    await client.query('DROP SCHEMA public CASCADE; CREATE SCHEMA public');
  });
  after(async () => {
    await client?.end();
    await resetDatabase(TEST_DATABASE_URL);
  });

  it('numbers the verified trees in chain order and serves each of them as before', async function () {
    const at = migrations.indexOf('2026_11_28_01_reward_versions.sql');
    for (const file of migrations.slice(0, at)) await run(file);
    const trees: [number, Tree][] = [
      [2, { [user(1)]: 10, [user(2)]: 20 }],
      [1, { [user(1)]: 5 }],
      [3, { [user(1)]: 10, [user(2)]: 21 }],
    ];
    for (const [n, tree] of trees) {
      await client.query(
        "INSERT INTO roots (chain_id, root, ipfs_hash, end_of_dispute_period, block_number, block_hash, tx_hash, log_index, timestamp) VALUES ($1, $2, 'bafy', 0, $3, $2, $2, 0, $3)",
        [CHAIN, root(n), n],
      );
      await client.query("INSERT INTO reward_trees (chain_id, root, status) VALUES ($1, $2, 'verified')", [
        CHAIN,
        root(n),
      ]);
      for (const [recipient, amount] of Object.entries(tree)) {
        await client.query(
          'INSERT INTO rewards (chain_id, root, recipient, token, amount) VALUES ($1, $2, $3, $4, $5)',
          [CHAIN, root(n), recipient, TOKEN, amount],
        );
        await client.query(
          "INSERT INTO reward_breakdowns (chain_id, root, recipient, token, campaign_id, reason, amount) VALUES ($1, $2, $3, $4, $5, 'holder', $6)",
          [CHAIN, root(n), recipient, TOKEN, CAMPAIGN, amount],
        );
      }
    }
    for (const file of migrations.slice(at)) await run(file);
    const seqs = (
      await client.query<{ root: string; seq: string }>('SELECT root, seq FROM reward_trees ORDER BY seq')
    ).rows.map((r) => r.root);
    expect(seqs, 'seq follows the roots').to.deep.equal([root(1), root(2), root(3)]);
    for (const [n, tree] of trees)
      for (const table of ['rewards', 'reward_breakdowns']) {
        const { rows } = await client.query<{ recipient: string; amount: string }>(
          `SELECT recipient, amount::text AS amount FROM ${table} WHERE root = $1 ORDER BY recipient`,
          [root(n)],
        );
        expect(Object.fromEntries(rows.map((r) => [r.recipient, Number(r.amount)])), `${table} of ${n}`).to.deep.equal(
          tree,
        );
      }
    const open = await client.query(
      'SELECT recipient, amount::int AS amount FROM reward_leaf_versions WHERE until_seq IS NULL ORDER BY recipient',
    );
    expect(Object.fromEntries(open.rows.map((r) => [r.recipient, r.amount])), 'the latest tree is open').to.deep.equal(
      trees[2]![1],
    );
  });
});
