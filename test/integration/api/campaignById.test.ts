import { expect } from 'chai';
import { storeRewardRows } from '../../helpers/rewardRows.js';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { seedCampaigns, seedCampaignsSpec, TX1, TX2, type SeedCampaign } from '../../fixtures/api/campaigns/seed.js';

describe('GET /v4/campaigns/{id}, /tx, /{id}/metrics, /{id}/storing-ids, /{id}/linked', function () {
  let h: Harness;
  let s: Record<string, SeedCampaign>;
  const id = (k: string) => s[k]!.id;

  before(async function () {
    h = await createHarness();
    s = seedCampaignsSpec(Math.floor(Date.now() / 1000));
    await seedCampaigns(h, s);
    const pg = h.deps.pg;
    // Snapshots of c1: TVL 1000 → 1600 over 2 days paying 100 USD/day: inflow 600 / 200 = 3 per dollar.
    for (const [ts, tvl, apr, daily] of [
      ['2024-01-11', 1000, 10, 100],
      ['2024-01-12', 1300, 12, 100],
      ['2024-01-13', 1600, null, 100],
    ] as const) {
      await pg.query(
        'INSERT INTO campaign_snapshots (campaign_db_id, ts, apr, tvl, daily_rewards) VALUES ($1, $2, $3, $4, $5)',
        [id('c1'), `${ts}T00:00:00Z`, apr, tvl, daily],
      );
    }
    // Two verified trees rewarding c1: 1 then 2 distinct wallets; an unverified tree is ignored.
    const root = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
    const wallet = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;
    for (const [n, status, ts, wallets] of [
      [1, 'verified', 1_704_000_000, [1]],
      [2, 'verified', 1_705_000_000, [1, 2]],
      [3, 'pending', 1_706_000_000, [1, 2, 3]],
    ] as const) {
      await pg.query(
        "INSERT INTO roots (chain_id, root, ipfs_hash, end_of_dispute_period, block_number, block_hash, tx_hash, log_index, timestamp) VALUES (31337, $1, 'bafy', 0, $2, $1, $1, 0, $3)",
        [root(n), n, ts],
      );
      await pg.query('INSERT INTO reward_trees (chain_id, root, status) VALUES (31337, $1, $2)', [root(n), status]);
      await storeRewardRows(pg, {
        chainId: 31337,
        root: root(n),
        rows: wallets.map((w) => [wallet(w), s['c1']!.onChainId, '0xtoken', 5] as const),
      });
    }
  });

  after(async () => h?.close());

  describe('/{id}', () => {
    it('serves a campaign by internal id', async function () {
      const res = await h
        .request()
        .get(`/v4/campaigns/${id('c2')}`)
        .expect(200);
      expect(res.body).to.include({ id: id('c2'), campaignId: s['c2']!.onChainId, parentCampaignId: id('c1') });
    });

    it('serves a campaign by distributionChainId-campaignId (any case)', async function () {
      const res = await h
        .request()
        .get(`/v4/campaigns/31338-${s['c5']!.onChainId.toUpperCase().replace('0X', '0x')}`)
        .expect(200);
      expect(res.body.id).to.equal(id('c5'));
    });

    it('serves a campaign, its metrics and its creator metrics by the on-chain id alone (issue 31)', async function () {
      const onChainId = s['c2']!.onChainId;
      expect((await h.request().get(`/v4/campaigns/${onChainId}`).expect(200)).body.id).to.equal(id('c2'));
      const metrics = (
        await h
          .request()
          .get(`/v4/campaigns/${id('c2')}/metrics`)
          .expect(200)
      ).body;
      expect((await h.request().get(`/v4/campaigns/${onChainId}/metrics`).expect(200)).body).to.deep.equal(metrics);
      expect((await h.request().get(`/v4/creators/campaigns/${onChainId}`).expect(200)).body).to.deep.equal(metrics);
      // A private campaign stays hidden, whatever id names it.
      await h.request().get(`/v4/campaigns/${s['c6']!.onChainId}`).expect(404);
      await h.request().get(`/v4/creators/campaigns/${s['c6']!.onChainId}`).expect(404);
      await h
        .request()
        .get(`/v4/creators/campaigns/0x${'ab'.repeat(32)}`)
        .expect(404);
    });

    it('answers 409 naming the composite ids when the on-chain id alone names campaigns on several chains', async function () {
      const copy = '999999999';
      await h.deps.pg.query(
        `INSERT INTO campaigns SELECT (jsonb_populate_record(NULL::campaigns, to_jsonb(c) || jsonb_build_object('id', $2::text, 'distribution_chain_id', 31338))).*
         FROM campaigns c WHERE c.id = $1`,
        [id('c2'), copy],
      );
      try {
        const onChainId = s['c2']!.onChainId.toLowerCase();
        const res = await h.request().get(`/v4/campaigns/${onChainId}/metrics`).expect(409);
        expect(res.body.candidates).to.deep.equal([`31337-${onChainId}`, `31338-${onChainId}`]);
        await h.request().get(`/v4/campaigns/31338-${onChainId}/metrics`).expect(200);
      } finally {
        await h.deps.pg.query('DELETE FROM campaigns WHERE id = $1', [copy]);
      }
    });

    it('answers 404 problem bodies for an unknown id, a composite id on the wrong chain and a private campaign', async function () {
      for (const path of [
        '/v4/campaigns/123456789',
        `/v4/campaigns/31338-${s['c1']!.onChainId}`,
        `/v4/campaigns/${id('c6')}`,
      ]) {
        const res = await h.request().get(path).expect(404);
        expect(res.headers['content-type']).to.match(/^application\/problem\+json/);
        expect(res.body).to.include({ status: 404 });
      }
    });

    it('answers 400 for a malformed id', async function () {
      const res = await h.request().get('/v4/campaigns/not-an-id').expect(400);
      expect(res.body.errors.map((e: { field: string }) => e.field)).to.include('id');
    });
  });

  describe('/tx', () => {
    it('lists the campaigns created by a transaction, in log order', async function () {
      expect(
        (await h.request().get('/v4/campaigns/tx').query({ hash: TX1, chainId: '31337' }).expect(200)).body,
      ).to.deep.equal([id('c1'), id('c2')]);
      expect(
        (
          await h
            .request()
            .get('/v4/campaigns/tx')
            .query({ hash: TX2.toUpperCase().replace('0X', '0x'), chainId: 31338 })
            .expect(200)
        ).body,
      ).to.deep.equal([id('c5')]);
    });

    it('answers [] for an unknown transaction', async function () {
      expect(
        (
          await h
            .request()
            .get('/v4/campaigns/tx')
            .query({ hash: `0x${'ff'.repeat(32)}`, chainId: 31337 })
            .expect(200)
        ).body,
      ).to.deep.equal([]);
    });

    it('answers 400 for a bad hash or a missing chainId', async function () {
      const bad = await h.request().get('/v4/campaigns/tx').query({ hash: '0x1234', chainId: 31337 }).expect(400);
      expect(bad.body.errors.map((e: { field: string }) => e.field)).to.deep.equal(['hash']);
      const missing = await h.request().get('/v4/campaigns/tx').query({ hash: TX1 }).expect(400);
      expect(missing.body.errors.map((e: { field: string }) => e.field)).to.deep.equal(['chainId']);
    });
  });

  describe('/{id}/metrics', () => {
    it('serves every series and tvlInflowPerDollar', async function () {
      const res = await h
        .request()
        .get(`/v4/campaigns/${id('c1')}/metrics`)
        .expect(200);
      expect(res.body.tvlRecords).to.deep.equal([
        { timestamp: '1704931200', total: 1000 },
        { timestamp: '1705017600', total: 1300 },
        { timestamp: '1705104000', total: 1600 },
      ]);
      expect(res.body.aprRecords).to.deep.equal([
        { timestamp: '1704931200', apr: 10 },
        { timestamp: '1705017600', apr: 12 },
      ]);
      expect(res.body.dailyRewardsRecords).to.have.length(3);
      expect(res.body.dailyRewardsRecords[0]).to.include({ timestamp: '1704931200', total: 100 });
      expect(res.body.dailyRewardsRecords[0].totalInToken).to.be.closeTo((1000 * 86_400) / (7 * 86_400 + 3600), 1e-6);
      expect(res.body.walletCount).to.deep.equal([
        { timestamp: '1704000000', walletCount: 1 },
        { timestamp: '1705000000', walletCount: 2 },
      ]);
      expect(res.body.tvlInflowPerDollar).to.equal(3);
    });

    it('pages each series with the bracket form', async function () {
      const res = await h
        .request()
        .get(`/v4/campaigns/${id('c1')}/metrics?tvl[page]=1&tvl[limit]=2&apr[limit]=1`)
        .expect(200);
      expect(res.body.tvlRecords).to.deep.equal([{ timestamp: '1705104000', total: 1600 }]);
      expect(res.body.aprRecords).to.deep.equal([{ timestamp: '1704931200', apr: 10 }]);
      expect(res.body.dailyRewardsRecords).to.have.length(3);
    });

    it('pages each series with the JSON-string form', async function () {
      const res = await h
        .request()
        .get(`/v4/campaigns/${id('c1')}/metrics`)
        .query({ tvl: '{"page":0,"limit":2}', dailyRewards: '{"page":2,"limit":1}', walletCount: '{"limit":1}' })
        .expect(200);
      expect(res.body.tvlRecords.map((r: { total: number }) => r.total)).to.deep.equal([1000, 1300]);
      expect(res.body.dailyRewardsRecords.map((r: { timestamp: string }) => r.timestamp)).to.deep.equal(['1705104000']);
      expect(res.body.walletCount).to.deep.equal([{ timestamp: '1704000000', walletCount: 1 }]);
    });

    it('answers 400 for bad paging in either form', async function () {
      for (const query of ['tvl={"page":-1}', 'apr=notjson', 'dailyRewards[limit]=0', 'tvl={"limit":5000}']) {
        const res = await h
          .request()
          .get(`/v4/campaigns/${id('c1')}/metrics?${query}`)
          .expect(400);
        expect(res.body.errors[0].field).to.match(/^(tvl|apr|dailyRewards)/);
      }
    });

    it('answers empty series for a campaign without history, 404 for an unknown campaign', async function () {
      const res = await h.request().get(`/v4/campaigns/31337-${s['c2']!.onChainId}/metrics`).expect(200);
      expect(res.body).to.deep.equal({
        tvlRecords: [],
        aprRecords: [],
        dailyRewardsRecords: [],
        walletCount: [],
        tvlInflowPerDollar: 0,
      });
      await h.request().get('/v4/campaigns/777/metrics').expect(404);
    });
  });

  describe('/{id}/storing-ids', () => {
    it('returns the tree of storing ids, stateless JSON_AIRDROP storing none', async function () {
      const res = await h
        .request()
        .get(`/v4/campaigns/${id('c1')}/storing-ids`)
        .expect(200);
      expect(res.body).to.deep.equal({
        campaignId: id('c1'),
        storingIds: [`31337_${s['c1']!.main}`],
        subCampaigns: [
          {
            campaignId: id('c2'),
            storingIds: [`31338_${s['c2']!.main}`],
            subCampaigns: [{ campaignId: id('c3'), storingIds: [], subCampaigns: [] }],
          },
        ],
      });
    });

    it('roots the tree at the requested campaign; 404 when unknown', async function () {
      const res = await h
        .request()
        .get(`/v4/campaigns/${id('c5')}/storing-ids`)
        .expect(200);
      expect(res.body).to.deep.equal({
        campaignId: id('c5'),
        storingIds: [`31338_${s['c5']!.main}`],
        subCampaigns: [],
      });
      await h.request().get('/v4/campaigns/777/storing-ids').expect(404);
    });
  });

  describe('/{id}/linked', () => {
    const shape = (body: { campaignId: string; parentCampaignId: string | null; self: boolean; depth: number }[]) =>
      body.map((n) => [n.campaignId, n.parentCampaignId, n.self, n.depth]);

    it('lists parents up to the root, the campaign itself and its subtree', async function () {
      const res = await h
        .request()
        .get(`/v4/campaigns/${id('c2')}/linked`)
        .expect(200);
      expect(shape(res.body)).to.deep.equal([
        [id('c1'), null, false, -1],
        [id('c2'), id('c1'), true, 0],
        [id('c3'), id('c2'), false, 1],
      ]);
      expect(res.body[2]).to.include({
        onChainCampaignId: s['c3']!.onChainId,
        type: 'JSON_AIRDROP',
        distributionChainId: 31337,
        computeChainId: 31337,
      });
    });

    it('walks the whole subtree from the root and up from a leaf', async function () {
      expect(
        shape(
          (
            await h
              .request()
              .get(`/v4/campaigns/${id('c1')}/linked`)
              .expect(200)
          ).body,
        ).map((n) => n[0]),
      ).to.deep.equal([id('c1'), id('c2'), id('c3')]);
      expect(
        shape(
          (
            await h
              .request()
              .get(`/v4/campaigns/${id('c3')}/linked`)
              .expect(200)
          ).body,
        ),
      ).to.deep.equal([
        [id('c1'), null, false, -2],
        [id('c2'), id('c1'), false, -1],
        [id('c3'), id('c2'), true, 0],
      ]);
    });

    it('applies excludeSubCampaigns and point, never dropping the requested campaign', async function () {
      expect(
        shape(
          (
            await h
              .request()
              .get(`/v4/campaigns/${id('c2')}/linked`)
              .query({ excludeSubCampaigns: 'true' })
              .expect(200)
          ).body,
        ).map((n) => n[0]),
      ).to.deep.equal([id('c1'), id('c2')]);
      expect(
        shape(
          (
            await h
              .request()
              .get(`/v4/campaigns/${id('c1')}/linked`)
              .query({ point: 'false' })
              .expect(200)
          ).body,
        ).map((n) => n[0]),
      ).to.deep.equal([id('c1'), id('c2')]);
      expect(
        shape(
          (
            await h
              .request()
              .get(`/v4/campaigns/${id('c1')}/linked`)
              .query({ tokenTypes: 'POINT' })
              .expect(200)
          ).body,
        ).map((n) => n[0]),
      ).to.deep.equal([id('c1'), id('c3')]);
    });

    it('answers a lone campaign as itself, 404 when unknown', async function () {
      expect(
        shape(
          (
            await h
              .request()
              .get(`/v4/campaigns/${id('c5')}/linked`)
              .expect(200)
          ).body,
        ),
      ).to.deep.equal([[id('c5'), null, true, 0]]);
      await h.request().get('/v4/campaigns/777/linked').expect(404);
    });
  });
});
