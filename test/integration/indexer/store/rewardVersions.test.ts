import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';
import { storeTreeEntries } from '../../../../indexer/store/rewardTrees.js';
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

  it('keeps chains apart', async function () {
    await db.query("INSERT INTO reward_trees (chain_id, root, status) VALUES (1, $1, 'verified')", [root(9)]);
    await withTransaction(db, (tx) =>
      storeTreeEntries(tx, { chainId: 1, root: root(9), ...entriesOf({ [user(7)]: 7 }) }),
    );
    expect(await served(1, 'rewards')).to.deep.equal({ [user(1)]: 11 });
    const other = await db.query('SELECT recipient FROM rewards WHERE chain_id = 1 AND root = $1', [root(9)]);
    expect(other.rows.map((r) => r.recipient)).to.deep.equal([user(7)]);
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
