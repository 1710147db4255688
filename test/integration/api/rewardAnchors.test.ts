import { expect } from 'chai';
import { listCampaignRewardsAnchored } from '../../../api/reads/rewards/repo.js';
import { anchorTree, listTreesToAnchor } from '../../../indexer/store/rewardAnchors.js';
import { storeTreeEntries } from '../../../indexer/store/stageRewardTree.js';
import { createPgPool, type PgPool, withTransaction } from '../../../internal/pg.js';
import { oracleCampaignRewards } from '../../helpers/backOfficeOracles.js';
import { resetDatabase } from '../../helpers/database.js';
import { seededRandom } from '../../helpers/seededRandom.js';
import { TEST_DATABASE_URL } from '../../helpers/testConfig.js';

const CHAIN = 7;
const TOKEN = `0x${'7e'.repeat(20)}`;
const OTHER_TOKEN = `0x${'70'.repeat(20)}`;
const CAMPAIGNS = [`0x${'c1'.repeat(32)}`, `0x${'c2'.repeat(32)}`];
/** Small buckets, so that pages start in every bucket and cross bucket ends. */
const BUCKET = 4;
const user = (i: number) => `0x${i.toString(16).padStart(40, '0')}`;
const root = (n: number) => `0x${n.toString(16).padStart(64, 'f')}`;

type Breakdown = { recipient: string; token: string; campaignId: string; reason: string; amount: string };

/**
 * Campaign anchors (sql/migrations/2026_12_05_02_reward_campaign_anchors.sql, indexer/store/rewardAnchors.ts) and the
 * page of GET /v4/rewards?campaignId read from them (listCampaignRewardsAnchored): the same rows as a walk from the
 * first row that sums the claims table itself (test/helpers/backOfficeOracles.ts), on every page of every kept tree,
 * hide or not, as trees follow one another and claims come and go; hidden counts kept by the claims trigger equal a
 * fresh cut's; a tree leaving the kept ones loses its anchors.
 */
describe('GET /v4/rewards?campaignId pages from campaign anchors (#30)', function () {
  let db: PgPool;
  let stored = 0;
  const q = async <T extends Record<string, unknown>>(sql: string, args: unknown[] = []) =>
    (await db.query<T>(sql, args)).rows;
  const kept = () =>
    q<{ seq: string; root: string }>(
      `SELECT u.seq::text AS seq, t.root FROM reward_unclaimed_trees u JOIN reward_trees t ON t.chain_id = u.chain_id AND t.seq = u.seq
       WHERE u.chain_id = $1 ORDER BY u.seq`,
      [CHAIN],
    );
  const anchors = () =>
    q(
      `SELECT seq::text, campaign_id, n::text, size, amount::text, recipient, token, reason, hidden
       FROM reward_campaign_anchors WHERE chain_id = $1 ORDER BY seq, campaign_id, n`,
      [CHAIN],
    );

  /** A tree of `recipients` users over both campaigns (ties in amounts, two reasons for some, a second token). */
  const tree = (rand: () => number, recipients: number): Breakdown[] => {
    const out: Breakdown[] = [];
    for (let i = 1; i <= recipients; i++)
      for (const [c, campaignId] of CAMPAIGNS.entries()) {
        if (rand() < 0.25 * c) continue;
        const amount = () => String(1 + Math.floor(rand() * 6) * 1000);
        const token = i % 9 === 0 ? OTHER_TOKEN : TOKEN;
        out.push({ recipient: user(i), token, campaignId, reason: 'holder', amount: amount() });
        if (i % 5 === c) out.push({ recipient: user(i), token, campaignId, reason: 'lp', amount: amount() });
      }
    return out;
  };
  const store = async (breakdowns: Breakdown[]) => {
    const r = root(++stored);
    await q("INSERT INTO reward_trees (chain_id, root, status) VALUES ($1, $2, 'verified')", [CHAIN, r]);
    const leaves = new Map<string, bigint>();
    for (const b of breakdowns)
      leaves.set(`${b.recipient}:${b.token}`, (leaves.get(`${b.recipient}:${b.token}`) ?? 0n) + BigInt(b.amount));
    await withTransaction(db, (tx) =>
      storeTreeEntries(tx, {
        chainId: CHAIN,
        root: r,
        leaves: [...leaves].map(([k, amount]) => {
          const [recipient, token] = k.split(':') as [string, string];
          return { recipient, token, amount: String(amount) };
        }),
        breakdowns,
      }),
    );
    for (const seq of await listTreesToAnchor(db, CHAIN, BUCKET))
      expect(await anchorTree(db, CHAIN, seq, BUCKET)).to.be.a('number');
  };

  /** Every page of every campaign of every kept tree (items 1, 3 and 7, one page past the end), hide or not. */
  const everyPageAgrees = async (what: string) => {
    let pages = 0;
    for (const { seq, root: r } of await kept())
      for (const campaignId of CAMPAIGNS) {
        const [{ n }] = (await q<{ n: number }>(
          'SELECT count(*)::int AS n FROM reward_breakdowns WHERE chain_id = $1 AND root = $2 AND campaign_id = $3',
          [CHAIN, r, campaignId],
        )) as [{ n: number }];
        for (const items of [1, 3, 7])
          for (const hide of [false, true])
            for (let page = 0; page <= Math.ceil(n / items); page++) {
              const p = { chainId: CHAIN, root: r, campaignId, hide, items, offset: page * items };
              expect(
                await listCampaignRewardsAnchored(db, { ...p, seq }),
                `${what}: tree ${seq} ${campaignId.slice(0, 6)} items ${items} page ${page}${hide ? ' hide' : ''}`,
              ).to.deep.equal(await oracleCampaignRewards(db, p));
              pages++;
            }
      }
    return pages;
  };

  /** The hidden counts the claims trigger kept equal what a fresh cut counts now. */
  const hiddenCountsAgree = async (what: string) => {
    const before = await anchors();
    for (const { seq } of await kept()) await anchorTree(db, CHAIN, seq, BUCKET);
    expect(await anchors(), what).to.deep.equal(before);
  };

  let log = 0;
  const claim = (recipient: string, token: string, amount: bigint) =>
    q(
      `INSERT INTO claims (chain_id, recipient, token, amount, block_number, block_hash, tx_hash, log_index, timestamp)
       VALUES ($1, $2, $3, $4, 99, $5, $5, $6, 0)`,
      [CHAIN, recipient, token, String(amount), `0x${'ab'.repeat(32)}`, log++],
    );

  before(async function () {
    await resetDatabase(TEST_DATABASE_URL);
    db = createPgPool({ connectionString: TEST_DATABASE_URL, applicationName: 'test-reward-anchors' });
  });
  after(async () => db?.end());

  it('answers every page as a walk from the first row, hide or not, over trees and claims; drops anchors with their tree', async function () {
    this.timeout(300_000);
    const rand = seededRandom(30);
    const first = tree(rand, 45);
    await store(first);
    expect(await everyPageAgrees('first tree')).to.be.greaterThan(300);
    // Claims: a whole leaf, half a leaf, exactly one breakdown's amount, nothing, and one of the other token.
    const leaf = (i: number) =>
      first.filter((b) => b.recipient === user(i) && b.token === TOKEN).reduce((s, b) => s + BigInt(b.amount), 0n);
    await claim(user(1), TOKEN, leaf(1));
    await claim(user(2), TOKEN, leaf(2) / 2n);
    await claim(user(3), TOKEN, BigInt(first.find((b) => b.recipient === user(3))!.amount));
    await claim(user(4), TOKEN, 0n);
    await claim(user(9), OTHER_TOKEN, 10n ** 9n);
    await hiddenCountsAgree('after claims');
    await everyPageAgrees('after claims');
    // Three more trees (each changes some amounts, drops and adds recipients): only the last three are kept.
    for (const recipients of [50, 40, 48]) {
      await store(tree(rand, recipients));
      await claim(user(recipients), TOKEN, 3000n);
      await claim(user(5), TOKEN, 1000n);
    }
    const trees = await kept();
    expect(trees.map((t) => t.root)).to.deep.equal([root(2), root(3), root(4)]);
    const anchored = await q<{ seq: string }>(
      'SELECT seq::text AS seq FROM reward_anchored_trees WHERE chain_id = $1 ORDER BY seq',
      [CHAIN],
    );
    expect(anchored.map((a) => a.seq)).to.deep.equal(trees.map((t) => t.seq));
    expect((await anchors()).map((a) => a['seq'])).to.not.include(String(Number(trees[0]!.seq) - 1));
    await hiddenCountsAgree('after more trees and claims');
    await everyPageAgrees('after more trees and claims');
    // A reorg takes claims back (the claims trigger on delete).
    await q('DELETE FROM claims WHERE chain_id = $1 AND log_index % 2 = 0', [CHAIN]);
    await hiddenCountsAgree('after claims were taken back');
    await everyPageAgrees('after claims were taken back');
    // A tree no longer kept is not anchored.
    expect(await anchorTree(db, CHAIN, '999999999', BUCKET)).to.equal(null);
  });
});
