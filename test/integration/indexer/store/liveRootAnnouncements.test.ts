import { expect } from 'chai';
import { announceLiveRoot } from '../../../../indexer/store/liveRootAnnouncements.js';
import { createPgPool, withTransaction, type PgPool } from '../../../../internal/pg.js';
import { resetDatabase } from '../../../helpers/database.js';
import { storeRewardRows } from '../../../helpers/rewardRows.js';
import { TEST_DATABASE_URL } from '../../../helpers/testConfig.js';

const CHAIN = 31337;
const TOKEN = `0x${'22'.repeat(20)}`;
const CAMPAIGN = `0x${'c1'.repeat(32)}`;
const root = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
const user = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;

type Event = { type: string; address: string | null; payload: Record<string, unknown> };

describe('indexer/store/liveRootAnnouncements: the cap on rewards.changed events (#30, #32)', function () {
  let db: PgPool;
  /** Posts root n (dispute period over, tree verified) with the leaves {user index: amount}. */
  const post = async (n: number, leaves: Record<number, number>) => {
    await db.query(
      "INSERT INTO roots (chain_id, root, ipfs_hash, end_of_dispute_period, block_number, block_hash, tx_hash, log_index, timestamp) VALUES ($1, $2, 'bafy', 0, $3, $2, $2, 0, $4)",
      [CHAIN, root(n), n, n * 1000],
    );
    await db.query("INSERT INTO reward_trees (chain_id, root, status) VALUES ($1, $2, 'verified')", [CHAIN, root(n)]);
    const rows = Object.entries(leaves).map(([u, a]) => [user(Number(u)), CAMPAIGN, TOKEN, a] as const);
    await storeRewardRows(db, { chainId: CHAIN, root: root(n), rows });
  };
  /** Announces the live root with at most `cap` address events; the events it appended, in order. */
  const announce = async (cap: number) => {
    const before = (await db.query<{ id: string }>('SELECT coalesce(max(id), 0)::text AS id FROM events')).rows[0]!.id;
    const result = await withTransaction(db, (tx) => announceLiveRoot(tx, CHAIN, cap));
    const { rows } = await db.query<Event>('SELECT type, address, payload FROM events WHERE id > $1 ORDER BY id', [
      before,
    ]);
    return { result, events: rows };
  };

  before(async function () {
    await resetDatabase(TEST_DATABASE_URL);
    db = createPgPool({ connectionString: TEST_DATABASE_URL, applicationName: 'test-live-root-announcements' });
  });
  after(async () => db?.end());

  it('announces up to the cap one rewards.changed per leaf after root.live, beyond it only the count', async function () {
    await post(1, { 1: 10, 2: 20, 3: 30 });
    const first = await announce(3);
    expect(first.result).to.include({ root: root(1), rewardsChanged: 3, addressEvents: true });
    expect(first.events.map((e) => [e.type, e.address])).to.deep.equal([
      ['root.live', null],
      ['rewards.changed', user(1)],
      ['rewards.changed', user(2)],
      ['rewards.changed', user(3)],
    ]);
    expect(first.events[0]!.payload).to.include({ previousRoot: null, rewardsChanged: 3, addressEvents: true });
    expect(first.events[1]!.payload).to.deep.equal({ token: TOKEN, amount: '10', previousAmount: '0' });

    // Three leaves differ from root 1 (one raised, one gone, one new): one more than the cap.
    await post(2, { 1: 11, 3: 30, 4: 40 });
    const over = await announce(2);
    expect(over.result).to.include({ root: root(2), previousRoot: root(1), rewardsChanged: 3, addressEvents: false });
    expect(over.events.map((e) => e.type)).to.deep.equal(['root.live']);
    expect(over.events[0]!.payload).to.include({ rewardsChanged: 3, addressEvents: false });

    // Exactly the cap: announced one by one.
    await post(3, { 1: 11, 3: 31, 4: 41 });
    const at = await announce(2);
    expect(at.result).to.include({ rewardsChanged: 2, addressEvents: true });
    expect(at.events.map((e) => [e.type, e.address, e.payload['previousAmount'] ?? null])).to.deep.equal([
      ['root.live', null, null],
      ['rewards.changed', user(3), '30'],
      ['rewards.changed', user(4), '40'],
    ]);

    // Nothing changed: root.live alone, counting none.
    await post(4, { 1: 11, 3: 31, 4: 41 });
    const none = await announce(0);
    expect(none.result).to.include({ rewardsChanged: 0, addressEvents: true });
    expect(none.events.map((e) => e.type)).to.deep.equal(['root.live']);
    expect(await announce(2)).to.deep.equal({ result: null, events: [] });
  });
});
