import { expect } from 'chai';
import type { LeafEntry } from '../../../../indexer/store/stagedLeaf.js';
import { openTreeStage, storeTreeEntries } from '../../../../indexer/store/stageRewardTree.js';
import { openTreeStore } from '../../../../indexer/store/treeStore.js';
import { createPgPool, type PgPool, withTransaction } from '../../../../internal/pg.js';
import { resetDatabase } from '../../../helpers/database.js';
import { TEST_DATABASE_URL } from '../../../helpers/testConfig.js';

/** The same trees are stored on ONE chain by one connection and on TWO by the roots job's two-connection store. */
const ONE = 101;
const TWO = 102;
const TOKENS = [`0x${'22'.repeat(20)}`, `0x${'33'.repeat(20)}`];
const CAMPAIGNS = [`0x${'c1'.repeat(32)}`, `0x${'c2'.repeat(32)}`, `0x${'C3'.repeat(32)}`];
const root = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
/** Recipients whose first hex digit runs through 0–f: both shares of treeStore.ts hold many. */
const user = (n: number) => `0x${(n % 16).toString(16)}${n.toString(16).padStart(39, '0')}`;

/**
 * Tree `round` of 3,000 (recipient, token) leaves, 1 to 3 breakdowns each, so that both recipient
 * shares hold many: from one round to the next some leaves change amount, some change only a
 * breakdown's reason, some go and some come, the rest stay.
 */
function treeOf(round: number): LeafEntry[] {
  const entries: LeafEntry[] = [];
  for (let i = 0; i < 1_500; i++) {
    if ((i + round) % 11 === 0) continue; // gone this round
    for (const [t, token] of TOKENS.entries()) {
      const grows = (i + t) % 5 === round % 5;
      const breakdowns = CAMPAIGNS.slice(0, 1 + ((i + t) % 3)).map((campaignId, c) => ({
        campaignId,
        reason: c === 1 && (i + round) % 7 === 0 ? `lp ${round}` : 'holder',
        amount: String(1000 * (i + 1) + c + (grows ? round : 0)),
      }));
      const amount = breakdowns.reduce((sum, b) => sum + BigInt(b.amount), 0n).toString();
      entries.push({ recipient: user(i + 1), token, amount, breakdowns });
    }
  }
  return entries;
}

/** The message `promise` rejects with (fails the test when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  return expect.fail('resolved');
}

/** Every row a chain's stored trees hold, its seqs replaced by the tree's rank, so two chains compare. */
async function storedRows(db: PgPool, chainId: number): Promise<Record<string, string[]>> {
  const rank = `(SELECT count(*) FROM reward_trees r WHERE r.chain_id = $1 AND r.seq IS NOT NULL AND r.seq <= x.s)`;
  const of = async (table: string, columns: string, seqs: string[]) => {
    const ranked = seqs.map((s) => `CASE WHEN x.${s} IS NULL THEN NULL ELSE ${rank.replace('x.s', `x.${s}`)} END`);
    const { rows } = await db.query<{ row: string }>(
      `SELECT concat_ws('|', ${columns}, ${ranked.join(', ')}) AS row FROM ${table} x WHERE x.chain_id = $1 ORDER BY 1`,
      [chainId],
    );
    return rows.map((r) => r.row);
  };
  return {
    leaves: await of('reward_leaf_versions', 'recipient, token, amount, digest', ['since_seq', 'until_seq']),
    breakdowns: await of('reward_breakdown_versions', 'recipient, token, campaign_id, reason, amount', [
      'since_seq',
      'until_seq',
    ]),
    tokenTotals: await of('reward_token_totals', 'token, amount, recipients', ['seq']),
    campaignTotals: await of('reward_campaign_totals', 'campaign_id, token, amount, recipients', ['seq']),
    deltas: await of('reward_campaign_deltas', 'campaign_id, token, delta', ['seq']),
    breakdownTotals: await of('reward_breakdown_totals', 'token, campaign_id, breakdowns, amount', ['seq']),
    unclaimed: await of('reward_campaign_unclaimed', 'campaign_id, amount', ['seq']),
  };
}

describe('indexer/store/treeStore: a tree stored from two connections (#30)', function () {
  this.timeout(120_000);
  let db: PgPool;

  const addTree = (chainId: number, n: number) =>
    db.query("INSERT INTO reward_trees (chain_id, root, status) VALUES ($1, $2, 'verified')", [chainId, root(n)]);
  const storeOnOne = async (n: number, entries: LeafEntry[]) => {
    await addTree(ONE, n);
    await withTransaction(db, (tx) =>
      storeTreeEntries(tx, {
        chainId: ONE,
        root: root(n),
        leaves: entries,
        breakdowns: entries.flatMap((e) => e.breakdowns.map((b) => ({ ...b, recipient: e.recipient, token: e.token }))),
      }),
    );
  };
  /** As the roots job stores a document (jobs/ingestRewardTree.ts); `finish` runs last in the tree's transaction. */
  const storeOnTwo = async (n: number, entries: LeafEntry[], finish = async () => {}) => {
    await addTree(TWO, n);
    const store = await openTreeStore(db, TWO, root(n));
    try {
      const stage = await openTreeStage(store.client, store.staged);
      await stage.write(entries);
      await stage.end();
      await store.commit(finish);
    } finally {
      expect(await store.close()).to.equal(undefined);
    }
    return store.seq;
  };
  const served = async (chainId: number, n: number) =>
    (
      await db.query<{ row: string }>(
        `SELECT concat_ws('|', b.recipient, b.token, b.campaign_id, b.reason, b.amount, r.amount) AS row
         FROM reward_breakdowns b JOIN rewards r USING (chain_id, root, recipient, token)
         WHERE chain_id = $1 AND root = $2 ORDER BY 1`,
        [chainId, root(n)],
      )
    ).rows.map((r) => r.row);
  const stagingTables = async () =>
    (
      await db.query<{ name: string }>(
        "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'reward_staging'",
      )
    ).rows.map((r) => r.name);

  before(async function () {
    await resetDatabase(TEST_DATABASE_URL);
    db = createPgPool({ connectionString: TEST_DATABASE_URL, applicationName: 'test-tree-store' });
  });
  after(async () => db?.end());

  it('stores every row one connection stores: versions, totals, deltas and unclaimed amounts of each tree', async function () {
    for (let round = 1; round <= 4; round++) {
      await storeOnOne(round, treeOf(round));
      await storeOnTwo(round, treeOf(round));
    }
    const one = await storedRows(db, ONE);
    const two = await storedRows(db, TWO);
    for (const key of Object.keys(one)) expect(two[key], key).to.deep.equal(one[key]);
    // Not a comparison of two empty sets: each tree changed rows of both recipient shares (0x0–0x4, 0x5–0xf).
    expect(one.breakdowns!.length).to.be.greaterThan(8_000);
    const shares = await db.query<{ first: number; second: number }>(
      `SELECT count(*) FILTER (WHERE substr(recipient, 3, 1) < '5')::int AS first,
         count(*) FILTER (WHERE substr(recipient, 3, 1) >= '5')::int AS second
       FROM reward_breakdown_versions WHERE chain_id = $1 AND since_seq = (SELECT max(seq) FROM reward_trees WHERE chain_id = $1)`,
      [TWO],
    );
    expect(shares.rows[0]!.first, 'breakdowns tree 4 opened in the first share').to.be.greaterThan(200);
    expect(shares.rows[0]!.second, 'and in the second').to.be.greaterThan(200);
    expect(one.leaves!.filter((r) => r.endsWith('|4')).length, 'leaves opened by tree 4').to.be.greaterThan(500);
    for (let round = 1; round <= 4; round++) expect(await served(TWO, round)).to.deep.equal(await served(ONE, round));
    expect(await stagingTables(), 'staging dropped').to.deep.equal([]);
    expect((await db.query('SELECT count(*)::int AS n FROM reward_tree_stores')).rows[0].n).to.equal(0);
    // The second chain's first tree was analyzed into the statistics: a chain they have not seen is
    // estimated at one row, and its comparisons and reads planned as nested loops (2–4 s per tree here).
    const { rows: seen } = await db.query<{ tablename: string; chains: string }>(
      `SELECT tablename, most_common_vals::text AS chains FROM pg_stats
       WHERE tablename IN ('reward_leaf_versions', 'reward_breakdown_versions') AND attname = 'chain_id' ORDER BY 1`,
    );
    expect(seen).to.deep.equal([
      { tablename: 'reward_breakdown_versions', chains: `{${ONE},${TWO}}` },
      { tablename: 'reward_leaf_versions', chains: `{${ONE},${TWO}}` },
    ]);
  });

  it('leaves nothing visible when the tree fails after the second connection committed, and undoes it', async function () {
    const before = await served(TWO, 4);
    const rowsBefore = await storedRows(db, TWO);
    let seq = '';
    const failing = storeOnTwo(5, treeOf(5), async () => {
      // The second connection's share is committed by now: other connections see it.
      const { rows } = await db.query(
        'SELECT count(*)::int AS n FROM reward_breakdown_versions WHERE chain_id = $1 AND since_seq = (SELECT max(seq) FROM reward_tree_stores)',
        [TWO],
      );
      expect(rows[0].n, 'the second share committed').to.be.greaterThan(100);
      seq = (await db.query('SELECT max(seq)::text AS seq FROM reward_tree_stores')).rows[0].seq;
      // Meanwhile the stored trees read as before.
      expect(await served(TWO, 4)).to.deep.equal(before);
      throw new Error('the tree fails after its breakdowns');
    });
    expect(await rejection(failing)).to.equal('the tree fails after its breakdowns');
    expect(seq).to.not.equal('');
    // Undone when the store closed: the chain's rows are those of trees 1–4, as before.
    expect(await storedRows(db, TWO)).to.deep.equal(rowsBefore);
    expect(
      (await db.query('SELECT seq FROM reward_trees WHERE chain_id = $1 AND root = $2', [TWO, root(5)])).rows[0].seq,
    ).to.equal(null);
    expect(await stagingTables()).to.deep.equal([]);
  });

  it('undoes a store whose process died after the second connection committed, before the next tree of the chain', async function () {
    const rowsBefore = await storedRows(db, TWO);
    await addTree(TWO, 6);
    const store = await openTreeStore(db, TWO, root(6));
    const stage = await openTreeStage(store.client, store.staged);
    await stage.write(treeOf(6));
    await stage.end();
    // The store's own connection dies as the second share commits (as a SIGKILLed job's would).
    const pid = (await store.client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    expect(
      await rejection(
        store.commit(async () => {
          await db.query('SELECT pg_terminate_backend($1)', [pid]);
          await store.client.query('SELECT 1');
        }),
      ),
    ).to.match(/terminat|connection/);
    expect(await store.close(), 'close could not undo it').to.be.instanceOf(Error);
    const left = await db.query(
      'SELECT count(*)::int AS n FROM reward_breakdown_versions WHERE chain_id = $1 AND since_seq = $2',
      [TWO, store.seq],
    );
    expect(left.rows[0].n, 'rows of a seq no tree has').to.be.greaterThan(100);
    expect((await db.query('SELECT chain_id FROM reward_tree_stores')).rows).to.deep.equal([{ chain_id: TWO }]);

    // The next store of the chain (here tree 7, from one connection as the store of a tree held in
    // memory) undoes it first: the stored rows are those of trees 1–4 plus tree 7's, the same as
    // chain ONE's after the same tree.
    await storeOnOne(7, treeOf(7));
    await addTree(TWO, 7);
    await withTransaction(db, (tx) =>
      storeTreeEntries(tx, {
        chainId: TWO,
        root: root(7),
        leaves: treeOf(7),
        breakdowns: treeOf(7).flatMap((e) =>
          e.breakdowns.map((b) => ({ ...b, recipient: e.recipient, token: e.token })),
        ),
      }),
    );
    expect(rowsBefore.leaves!.length).to.be.greaterThan(0);
    const one = await storedRows(db, ONE);
    const two = await storedRows(db, TWO);
    for (const key of Object.keys(one)) expect(two[key], key).to.deep.equal(one[key]);
    expect(await served(TWO, 7)).to.deep.equal(await served(ONE, 7));
    expect((await db.query('SELECT count(*)::int AS n FROM reward_tree_stores')).rows[0].n).to.equal(0);
    expect(await stagingTables()).to.deep.equal([]);
  });
});
