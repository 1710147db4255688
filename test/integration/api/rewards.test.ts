import { expect } from 'chai';
import { distributorAbi } from '../../../contracts/artifacts/index.js';
import { createDevnetClients } from '../../../contracts/clients.js';
import { anchorTree } from '../../../indexer/store/rewardAnchors.js';
import { createReferenceDemo, type ReferenceDemo } from './referenceDemo.js';

type RewardItem = {
  recipient: string;
  campaignId: string;
  reason: string;
  rewardTokenAddress: string;
  amount: string;
  claimed: string;
  pending: string;
};
type RootItem = { root: string; chainId: number; epoch: number; timestamp: string; isLatest: boolean };

describe('GET /v4/roots and /v4/rewards on the seeded demo (reference data)', function () {
  let demo: ReferenceDemo;
  let roots: { root: string; timestamp: number }[];
  let liveRoot: string;
  let campaignInTree: string;

  before(async function () {
    this.timeout(600_000);
    demo = await createReferenceDemo();
    const { rows } = await demo.h.deps.pg.query<{ root: string; timestamp: string }>(
      'SELECT root, timestamp::text FROM roots WHERE chain_id = 31337 AND NOT revoked ORDER BY block_number, log_index',
    );
    roots = rows.map((r) => ({ root: r.root, timestamp: Number(r.timestamp) }));
    // The live root is the one the Distributor verifies claims against (the API decides at the chain's indexed block time).
    const { devnet, stack } = demo.h.chains[0]!;
    liveRoot = (
      await createDevnetClients({ rpcUrl: devnet.rpcUrl, chainId: 31337 }).publicClient.readContract({
        address: stack.distributor,
        abi: distributorAbi,
        functionName: 'getMerkleRoot',
      })
    ).toLowerCase();
    const tree = await demo.h.deps.pg.query<{ status: string }>(
      'SELECT status FROM reward_trees WHERE chain_id = 31337 AND root = $1',
      [liveRoot],
    );
    expect(tree.rows[0]?.status, 'live tree verified by the roots job').to.equal('verified');
    // A campaign of the live tree with a fully claimed recipient (the demo's first claimants).
    const b = await demo.h.deps.pg.query<{ campaign_id: string }>(
      `SELECT b.campaign_id FROM reward_breakdowns b WHERE b.root = $1
         AND b.amount <= (SELECT coalesce(sum(c.amount), 0) FROM claims c WHERE c.recipient = b.recipient AND c.token = b.token)
       ORDER BY b.campaign_id LIMIT 1`,
      [liveRoot],
    );
    campaignInTree = b.rows[0]!.campaign_id;
  });

  after(async () => demo?.close());

  describe('/v4/roots', function () {
    it('seeded three roots with increasing timestamps', function () {
      expect(roots).to.have.length(3);
      expect(roots[1]!.timestamp).to.be.greaterThan(roots[0]!.timestamp);
      expect(roots[2]!.timestamp).to.be.greaterThan(roots[1]!.timestamp);
    });

    it('returns the roots of the window plus the one in force at fromTimestamp, newest first', async function () {
      const res = await demo.h
        .request()
        .get('/v4/roots/')
        .query({
          chainId: 31337,
          fromTimestamp: String(roots[1]!.timestamp + 1),
          toTimestamp: String(roots[2]!.timestamp),
        })
        .expect(200);
      expect(res.body).to.deep.equal(
        [roots[2]!, roots[1]!].map((r, i) => ({
          root: r.root,
          chainId: 31337,
          epoch: Math.floor(r.timestamp / 3600),
          timestamp: String(r.timestamp),
          isLatest: i === 0,
        })),
      );
    });

    it('leaves out roots recorded after toTimestamp (isLatest stays about the chain)', async function () {
      const res = await demo.h
        .request()
        .get('/v4/roots')
        .query({ chainId: 31337, fromTimestamp: 0, toTimestamp: roots[1]!.timestamp })
        .expect(200);
      expect(res.body.map((r: RootItem) => r.root)).to.deep.equal([roots[1]!.root, roots[0]!.root]);
      expect(res.body.map((r: RootItem) => r.isLatest)).to.deep.equal([false, false]);
    });

    it('returns nothing before the first root and for a chain without roots', async function () {
      const early = await demo.h
        .request()
        .get('/v4/roots')
        .query({ chainId: 31337, fromTimestamp: 0, toTimestamp: roots[0]!.timestamp - 1 })
        .expect(200);
      expect(early.body).to.deep.equal([]);
      const other = await demo.h
        .request()
        .get('/v4/roots')
        .query({ chainId: 999, fromTimestamp: 0, toTimestamp: 2 ** 40 })
        .expect(200);
      expect(other.body).to.deep.equal([]);
    });

    it('pages with page and items', async function () {
      const q = { chainId: 31337, fromTimestamp: 0, toTimestamp: 2 ** 40, items: 2 };
      const p0 = await demo.h
        .request()
        .get('/v4/roots')
        .query({ ...q, page: 0 })
        .expect(200);
      const p1 = await demo.h
        .request()
        .get('/v4/roots')
        .query({ ...q, page: 1 })
        .expect(200);
      expect([...p0.body, ...p1.body].map((r: RootItem) => r.root)).to.deep.equal(
        [...roots].reverse().map((r) => r.root),
      );
      expect(p0.body).to.have.length(2);
    });

    it('answers 400 naming each missing or bad field', async function () {
      const missing = await demo.h.request().get('/v4/roots').query({ chainId: 31337 }).expect(400);
      expect(missing.headers['content-type']).to.match(/application\/problem\+json/);
      expect(missing.body.errors.map((e: { field: string }) => e.field).sort()).to.deep.equal([
        'fromTimestamp',
        'toTimestamp',
      ]);
      const noChain = await demo.h.request().get('/v4/roots').query({ fromTimestamp: 0, toTimestamp: 1 }).expect(400);
      expect(noChain.body.errors.map((e: { field: string }) => e.field)).to.deep.equal(['chainId']);
      const bad = await demo.h
        .request()
        .get('/v4/roots')
        .query({ chainId: 'x', fromTimestamp: 'soon', toTimestamp: 1, items: 0 })
        .expect(400);
      expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).to.deep.equal([
        'chainId',
        'fromTimestamp',
        'items',
      ]);
      const inverted = await demo.h
        .request()
        .get('/v4/roots')
        .query({ chainId: 31337, fromTimestamp: 10, toTimestamp: 5 })
        .expect(400);
      expect(inverted.body.errors).to.deep.equal([
        { field: 'toTimestamp', message: 'must be greater than or equal to fromTimestamp' },
      ]);
    });
  });

  describe('/v4/rewards', function () {
    it('lists the campaign breakdowns of the live root by descending amount, with claimed and pending', async function () {
      const res = await demo.h
        .request()
        .get('/v4/rewards/')
        .query({ chainId: '31337', campaignId: campaignInTree, items: 100 })
        .expect(200);
      const { rows } = await demo.h.deps.pg.query<{ recipient: string; token: string; reason: string; amount: string }>(
        'SELECT recipient, token, reason, amount::text FROM reward_breakdowns WHERE chain_id = 31337 AND root = $1 AND campaign_id = $2',
        [liveRoot, campaignInTree],
      );
      expect(rows.length).to.be.greaterThan(0);
      expect(res.body).to.have.length(rows.length);
      const amounts = res.body.map((r: RewardItem) => BigInt(r.amount));
      expect(amounts).to.deep.equal([...amounts].sort((a: bigint, b: bigint) => (a < b ? 1 : a > b ? -1 : 0)));
      for (const item of res.body as RewardItem[]) {
        const row = rows.find((r) => r.recipient === item.recipient && r.reason === item.reason)!;
        const claimed = await demo.h.deps.pg.query<{ s: string }>(
          'SELECT coalesce(sum(amount), 0)::text AS s FROM claims WHERE chain_id = 31337 AND recipient = $1 AND token = $2',
          [item.recipient, row.token],
        );
        const pending = BigInt(row.amount) - BigInt(claimed.rows[0]!.s);
        expect(item).to.deep.equal({
          recipient: row.recipient,
          campaignId: campaignInTree,
          reason: row.reason,
          rewardTokenAddress: row.token,
          amount: row.amount,
          claimed: claimed.rows[0]!.s,
          pending: (pending > 0n ? pending : 0n).toString(),
        });
      }
    });

    it('hide=true leaves out recipients with nothing left to claim, hide=false keeps them', async function () {
      const all = (
        await demo.h
          .request()
          .get('/v4/rewards')
          .query({ chainId: 31337, campaignId: campaignInTree, items: 100, hide: false })
          .expect(200)
      ).body as RewardItem[];
      const hidden = (
        await demo.h
          .request()
          .get('/v4/rewards')
          .query({ chainId: 31337, campaignId: campaignInTree, items: 100, hide: true })
          .expect(200)
      ).body as RewardItem[];
      expect(hidden).to.deep.equal(all.filter((r) => r.pending !== '0'));
      expect(
        all.some((r) => r.pending === '0'),
        'the campaign has a fully claimed recipient',
      ).to.equal(true);
      expect(hidden.length).to.be.lessThan(all.length);
    });

    it('has claimants in the demo: some row has a claimed amount', async function () {
      const { rows } = await demo.h.deps.pg.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM reward_breakdowns b WHERE root = $1 AND EXISTS (SELECT 1 FROM claims c WHERE c.recipient = b.recipient AND c.token = b.token)`,
        [liveRoot],
      );
      expect(rows[0]!.n).to.be.greaterThan(0);
    });

    it('pages with page and items', async function () {
      const all = (
        await demo.h
          .request()
          .get('/v4/rewards')
          .query({ chainId: 31337, campaignId: campaignInTree, items: 100 })
          .expect(200)
      ).body as RewardItem[];
      const second = (
        await demo.h
          .request()
          .get('/v4/rewards')
          .query({ chainId: 31337, campaignId: campaignInTree, items: 1, page: 1 })
          .expect(200)
      ).body as RewardItem[];
      expect(second).to.deep.equal(all.slice(1, 2));
    });

    it('returns nothing for a campaign outside the live tree or a chain without roots', async function () {
      const other = await demo.h
        .request()
        .get('/v4/rewards')
        .query({ chainId: 31337, campaignId: `0x${'ab'.repeat(32)}` })
        .expect(200);
      expect(other.body).to.deep.equal([]);
      const chain = await demo.h
        .request()
        .get('/v4/rewards')
        .query({ chainId: 999, campaignId: campaignInTree })
        .expect(200);
      expect(chain.body).to.deep.equal([]);
    });

    it('answers 400 naming chainId, campaignId and hide when missing or malformed', async function () {
      const missing = await demo.h.request().get('/v4/rewards').expect(400);
      expect(missing.body.errors.map((e: { field: string }) => e.field).sort()).to.deep.equal([
        'campaignId',
        'chainId',
      ]);
      const bad = await demo.h
        .request()
        .get('/v4/rewards')
        .query({ chainId: 31337, campaignId: 'abc', hide: 'maybe', page: -1 })
        .expect(400);
      expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).to.deep.equal([
        'campaignId',
        'hide',
        'page',
      ]);
    });
    it('serves the same pages in any order of reading, ties included, from where earlier pages ended (#30)', async function () {
      const { pg } = demo.h.deps;
      const campaign = `0x${'5e'.repeat(32)}`;
      const token = `0x${'7a'.repeat(20)}`;
      const { rows } = await pg.query<{ seq: string }>(
        'SELECT seq FROM reward_trees WHERE chain_id = 31337 AND root = $1',
        [liveRoot],
      );
      // 230 breakdowns of one campaign in the live tree, amounts in 7 tied groups, two reasons each.
      const recipients = Array.from({ length: 115 }, (_, i) => `0x${(0xe000 + i).toString(16).padStart(40, '0')}`);
      const made = recipients.flatMap((recipient, i) =>
        ['a', 'b'].map((reason) => ({ recipient, reason, amount: String(((i * 3) % 7) + 1) })),
      );
      await pg.query(
        `INSERT INTO reward_breakdown_versions (chain_id, recipient, token, campaign_id, reason, amount, since_seq)
         SELECT 31337, r, $2, $3, re, a::numeric, $1 FROM unnest($4::text[], $5::text[], $6::text[]) AS u(r, re, a)`,
        [
          rows[0]!.seq,
          token,
          campaign,
          made.map((m) => m.recipient),
          made.map((m) => m.reason),
          made.map((m) => m.amount),
        ],
      );
      try {
        const expected = [...made]
          .sort(
            (x, y) =>
              Number(y.amount) - Number(x.amount) ||
              (x.recipient < y.recipient ? -1 : x.recipient > y.recipient ? 1 : 0) ||
              (x.reason < y.reason ? -1 : 1),
          )
          .map((m) => `${m.recipient}/${m.reason}/${m.amount}`);
        const page = async (n: number, items: number) =>
          (
            await demo.h
              .request()
              .get('/v4/rewards')
              .query({ chainId: 31337, campaignId: campaign, page: n, items })
              .expect(200)
          ).body.map((r: RewardItem) => `${r.recipient}/${r.reason}/${r.amount}`);
        const readsAgree = async (what: string) => {
          // In order (each page from the end of the one before), then backwards, then jumping about.
          for (const order of [
            [0, 1, 2, 3, 4, 5],
            [5, 4, 3, 2, 1, 0],
            [3, 0, 5, 1, 4, 2, 5, 3],
          ])
            for (const n of order)
              expect(await page(n, 40), `${what}: page ${n} of 40 (order ${order})`).to.deep.equal(
                expected.slice(n * 40, n * 40 + 40),
              );
          // Another page size is another sequence of boundaries.
          for (const n of [0, 1, 2, 9, 8, 23, 22])
            expect(await page(n, 10), `${what}: page ${n} of 10`).to.deep.equal(expected.slice(n * 10, n * 10 + 10));
        };
        // The tree's campaign anchors cut again with its new rows (buckets of 16: pages start inside them), then
        // without anchors (pages from where earlier pages ended).
        expect(await anchorTree(pg, 31337, rows[0]!.seq, 16)).to.be.greaterThan(230 / 16);
        await readsAgree('from anchors');
        // The id in another case reads the same anchors (the tree stores it in lower case only).
        const upper = `0x${campaign.slice(2).toUpperCase()}`;
        const read = (campaignId: string, n: number, items: number) =>
          demo.h.request().get('/v4/rewards').query({ chainId: 31337, campaignId, page: n, items }).expect(200);
        for (const n of [0, 3, 22]) {
          const res = await read(upper, n, 10);
          expect(res.headers['server-timing'], `page ${n} in upper case`).to.include('rewards;desc=anchors');
          expect(res.body.map((r: RewardItem) => `${r.recipient}/${r.reason}/${r.amount}`)).to.deep.equal(
            expected.slice(n * 10, n * 10 + 10),
          );
        }
        // Stored as given too (a tree stating the id in upper case): both spellings' rows, walked.
        await pg.query(
          `INSERT INTO reward_breakdown_versions (chain_id, recipient, token, campaign_id, reason, amount, since_seq)
           VALUES (31337, $2, $3, $4, 'u', 100, $1)`,
          [rows[0]!.seq, recipients[0], token, upper],
        );
        const both = await read(upper, 0, 5);
        expect(both.headers['server-timing']).to.include('rewards;desc=walk');
        expect(both.body.map((r: RewardItem) => `${r.campaignId}/${r.amount}`)).to.deep.equal([
          `${upper}/100`,
          ...expected.slice(0, 4).map((e) => `${campaign}/${e.split('/')[2]}`),
        ]);
        await pg.query('DELETE FROM reward_breakdown_versions WHERE campaign_id = $1', [upper]);
        await pg.query('DELETE FROM reward_anchored_trees WHERE chain_id = 31337 AND seq = $1', [rows[0]!.seq]);
        await readsAgree('from page boundaries');
      } finally {
        await pg.query('DELETE FROM reward_breakdown_versions WHERE campaign_id IN ($1, $2)', [
          campaign,
          `0x${campaign.slice(2).toUpperCase()}`,
        ]);
        await anchorTree(pg, 31337, rows[0]!.seq);
      }
    });
  });
});
