import { expect } from 'chai';
import { forgetChainRows } from '../../../api/chainRecords.js';
import { signSession } from '../../../api/identity/jwt.js';
import { seedCreators, upsertCreators } from '../../../scripts/seedCreators.js';
import { seedCampaigns, seedCampaignsSpec, type SeedCampaign } from '../../fixtures/api/campaigns/seed.js';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { TEST_BACK_OFFICE_TOKEN } from '../../helpers/testConfig.js';
import { tuplesReadBy } from '../../helpers/tuplesRead.js';
import { createReferenceDemo, type ReferenceDemo } from './referenceDemo.js';

const DEVNET_LABS = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const POOL_PARTNERS = '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc';
const IMPLICIT = '0x90f79bf6eb2c4f937b6d6aa5ce2e4d5a9f8aa7ad';

type Creator = {
  id: string;
  name: string;
  icon: string | null;
  rebateFee: number;
  addresses: string[];
  tags: string[];
};

describe('GET /v4/creators on the seeded demo (reference data)', function () {
  let demo: ReferenceDemo;
  const get = (path: string, query: Record<string, unknown> = {}) => demo.h.request().get(path).query(query);
  const list = async (query: Record<string, unknown>) =>
    (await get('/v4/creators/', query).expect(200)).body as Creator[];
  const fields400 = async (path: string, query: Record<string, unknown> = {}) =>
    ((await get(path, query).expect(400)).body.errors as { field: string }[]).map((e) => e.field).sort();

  /** Campaign counts of `creator` at `now` straight from PostgreSQL. */
  async function counts(creator: string, now: number) {
    const { rows } = await demo.h.deps.pg.query<{ past: number; live: number; future: number; total: number }>(
      `SELECT count(*) FILTER (WHERE end_timestamp <= $2)::int AS past, count(*) FILTER (WHERE start_timestamp <= $2 AND end_timestamp > $2)::int AS live,
         count(*) FILTER (WHERE start_timestamp > $2)::int AS future, count(*)::int AS total FROM campaigns_current WHERE creator = $1`,
      [creator, now],
    );
    return rows[0]!;
  }

  before(async function () {
    this.timeout(600_000);
    demo = await createReferenceDemo();
    // Account #3 keeps its campaigns but loses its row: it is served as an implicit creator.
    await demo.h.deps.pg.query(`DELETE FROM creators WHERE id = 'lending-dao'`);
  });

  after(async () => demo?.close());

  describe('/v4/creators', function () {
    it('lists registered creators, then implicit ones (id = address), every field named', async function () {
      const res = await list({});
      expect(res).to.deep.equal([
        { id: 'devnet-labs', name: 'Devnet Labs', icon: null, rebateFee: 0, addresses: [DEVNET_LABS], tags: ['demo'] },
        {
          id: 'pool-partners',
          name: 'Pool Partners',
          icon: null,
          rebateFee: 0,
          addresses: [POOL_PARTNERS],
          tags: ['demo', 'dex'],
        },
        { id: IMPLICIT, name: IMPLICIT, icon: null, rebateFee: 0, addresses: [IMPLICIT], tags: [] },
      ]);
    });

    it('filters by id, address and search', async function () {
      expect((await list({ id: 'pool-partners' })).map((c) => c.id)).to.deep.equal(['pool-partners']);
      expect(await list({ id: 'nobody' })).to.deep.equal([]);
      expect((await list({ address: DEVNET_LABS.toUpperCase().replace('0X', '0x') })).map((c) => c.id)).to.deep.equal([
        'devnet-labs',
      ]);
      expect((await list({ address: IMPLICIT })).map((c) => c.id)).to.deep.equal([IMPLICIT]);
      expect(await list({ address: `0x${'5'.repeat(40)}` })).to.deep.equal([]);
      expect((await list({ search: 'POOL' })).map((c) => c.id)).to.deep.equal(['pool-partners']);
      expect((await list({ search: '0x90f7' })).map((c) => c.id)).to.deep.equal([IMPLICIT]);
      expect(await list({ search: 'zzz' })).to.deep.equal([]);
    });

    it('pages with page and items', async function () {
      expect((await list({ items: 1, page: 1 })).map((c) => c.id)).to.deep.equal(['pool-partners']);
      expect(await list({ items: 2, page: 5 })).to.deep.equal([]);
    });

    it('answers 400 naming bad fields', async function () {
      expect(await fields400('/v4/creators', { address: '0x1', items: 'many', page: -2, search: '' })).to.deep.equal([
        'address',
        'items',
        'page',
        'search',
      ]);
      expect(await fields400('/v4/creators', { slug: 'x' })).to.deep.equal(['slug']);
    });
  });

  describe('/v4/creators/{creator}', function () {
    it('returns a creator by slug or by one of its addresses, and an implicit one by address', async function () {
      expect((await get('/v4/creators/devnet-labs').expect(200)).body).to.include({
        id: 'devnet-labs',
        name: 'Devnet Labs',
      });
      expect((await get(`/v4/creators/${POOL_PARTNERS}`).expect(200)).body).to.include({ id: 'pool-partners' });
      expect((await get(`/v4/creators/${IMPLICIT}`).expect(200)).body).to.deep.include({
        id: IMPLICIT,
        addresses: [IMPLICIT],
      });
    });

    it('answers 404 with a problem body for an unknown creator, 400 for a malformed one', async function () {
      const res = await get('/v4/creators/nobody').expect(404);
      expect(res.headers['content-type']).to.match(/application\/problem\+json/);
      expect(res.body).to.include({ status: 404 });
      await get(`/v4/creators/0x${'6'.repeat(40)}`).expect(404);
      expect(await fields400('/v4/creators/bad_slug!')).to.deep.equal(['creator']);
    });
  });

  describe('/v4/creators/{creator}/dashboard', function () {
    it('counts campaigns by status and sums TVL, wallets and USD distributed', async function () {
      const now = Math.floor(Date.now() / 1000);
      const res = (await get('/v4/creators/devnet-labs/dashboard').expect(200)).body;
      const c = await counts(DEVNET_LABS, now);
      expect(res).to.have.all.keys(
        'pastCampaigns',
        'liveCampaigns',
        'futureCampaigns',
        'totalTvl',
        'totalWallets',
        'totalCampaigns',
        'totalDistributed',
        'creatorId',
      );
      expect(res).to.include({
        pastCampaigns: c.past,
        liveCampaigns: c.live,
        futureCampaigns: c.future,
        totalCampaigns: c.total,
        creatorId: 'devnet-labs',
      });
      expect(c.past * c.live * c.future).to.be.greaterThan(0);
      const tvl = await demo.h.deps.pg.query<{ s: number }>(
        `SELECT coalesce(sum(m.tvl_usd), 0)::float8 AS s FROM campaigns_current c JOIN campaign_metrics m ON m.campaign_db_id = c.id
         WHERE c.creator = $1 AND c.start_timestamp <= $2 AND c.end_timestamp > $2`,
        [DEVNET_LABS, now],
      );
      expect(res.totalTvl).to.be.closeTo(tvl.rows[0]!.s, 1e-6);
      const wallets = await demo.h.deps.pg.query<{ n: number }>(
        `SELECT count(DISTINCT b.recipient)::int AS n FROM reward_breakdowns b JOIN campaigns c ON c.campaign_id = b.campaign_id WHERE c.creator = $1`,
        [DEVNET_LABS],
      );
      expect(res.totalWallets).to.equal(wallets.rows[0]!.n);
      // One definition of "distributed" (issue 42): what the live roots paid, as the totals route answers.
      expect(res.totalDistributed).to.be.greaterThan(0);
      const route = (await get('/v4/rewards/total/distributed', { creatorAddresses: DEVNET_LABS }).expect(200)).body;
      expect(res.totalDistributed).to.be.closeTo(route, 1e-9 * Math.max(1, route));
      const other = (await get('/v4/rewards/total/distributed', { creatorAddress: POOL_PARTNERS }).expect(200)).body;
      const pool = (await get('/v4/creators/pool-partners/dashboard').expect(200)).body;
      expect(pool.totalDistributed).to.be.closeTo(other, 1e-9 * Math.max(1, other));
    });

    it('serves creatorId null for an implicit creator, 404 for an unknown one', async function () {
      expect((await get(`/v4/creators/${IMPLICIT}/dashboard`).expect(200)).body.creatorId).to.equal(null);
      await get('/v4/creators/nobody/dashboard').expect(404);
    });

    it('leaves campaigns on test chains out unless test=true', async function () {
      await demo.h.deps.pg.query('UPDATE chains SET is_test = true WHERE id = 31337');
      forgetChainRows(demo.h.apiPg); // the API keeps chain rows for a while
      try {
        expect((await get('/v4/creators/devnet-labs/dashboard').expect(200)).body.totalCampaigns).to.equal(0);
        expect(
          (await get('/v4/creators/devnet-labs/dashboard', { test: true }).expect(200)).body.totalCampaigns,
        ).to.be.greaterThan(0);
      } finally {
        await demo.h.deps.pg.query('UPDATE chains SET is_test = false WHERE id = 31337');
        forgetChainRows(demo.h.apiPg);
      }
      expect(await fields400('/v4/creators/devnet-labs/dashboard', { test: 'perhaps' })).to.deep.equal(['test']);
    });
  });

  describe('/v4/creators/{creator}/campaigns', function () {
    it('returns the creator campaigns from Elasticsearch, serialized as /v4/campaigns', async function () {
      const all = (await get('/v4/creators/pool-partners/campaigns').expect(200)).body as {
        creatorAddress: string;
        id: string;
        chain: unknown;
      }[];
      const c = await counts(POOL_PARTNERS, Math.floor(Date.now() / 1000));
      expect(all).to.have.length(c.total);
      expect(all.every((x) => x.creatorAddress === POOL_PARTNERS)).to.equal(true);
      const reference = (await get('/v4/campaigns', { items: 100 }).expect(200)).body as { id: string }[];
      expect(all[0]).to.deep.equal(reference.find((x) => x.id === all[0]!.id));
    });

    it('filters by status PAST, LIVE or FUTURE', async function () {
      const c = await counts(POOL_PARTNERS, Math.floor(Date.now() / 1000));
      for (const [status, n] of [
        ['PAST', c.past],
        ['LIVE', c.live],
        ['FUTURE', c.future],
      ] as const) {
        expect((await get('/v4/creators/pool-partners/campaigns', { status }).expect(200)).body, status).to.have.length(
          n,
        );
      }
      expect(await fields400('/v4/creators/pool-partners/campaigns', { status: 'SOON' })).to.deep.equal(['status']);
      await get('/v4/creators/nobody/campaigns').expect(404);
    });
  });

  describe('/v4/creators/campaigns/{campaignId}', function () {
    it('serves the campaign metrics (same shape as /v4/campaigns/{id}/metrics)', async function () {
      const { rows } = await demo.h.deps.pg.query<{ id: string }>('SELECT id FROM campaigns ORDER BY id LIMIT 1');
      const res = (await get(`/v4/creators/campaigns/${rows[0]!.id}`).expect(200)).body;
      expect(res).to.have.all.keys(
        'tvlRecords',
        'aprRecords',
        'dailyRewardsRecords',
        'walletCount',
        'tvlInflowPerDollar',
      );
      expect(res).to.deep.equal((await get(`/v4/campaigns/${rows[0]!.id}/metrics`).expect(200)).body);
    });

    it('answers 404 for an unknown campaign and 400 for a malformed id', async function () {
      await get('/v4/creators/campaigns/123').expect(404);
      expect(await fields400('/v4/creators/campaigns/xyz')).to.deep.equal(['id']);
    });
  });

  describe('/v4/creators/{creator}/opportunities (+ /count)', function () {
    /** Ids of the opportunities holding a campaign by `creator`, straight from PostgreSQL. */
    async function opportunityIdsOf(creator: string): Promise<string[]> {
      const { rows } = await demo.h.deps.pg.query<{ id: string }>(
        'SELECT DISTINCT opportunity_id AS id FROM campaigns_current WHERE creator = $1',
        [creator],
      );
      return rows.map((r) => r.id).sort();
    }

    it('returns exactly the opportunities with a campaign by the creator, counted alike', async function () {
      const expected = await opportunityIdsOf(POOL_PARTNERS);
      expect(expected.length).to.be.greaterThan(0);
      const res = await get('/v4/creators/pool-partners/opportunities', { items: 100, point: undefined }).expect(200);
      const ids = (res.body as { id: string }[]).map((o) => o.id).sort();
      // Point-only opportunities are hidden by default, like GET /v4/opportunities.
      expect(ids.every((id) => expected.includes(id))).to.equal(true);
      const withPoints = await get('/v4/creators/pool-partners/opportunities', {
        items: 100,
        tokenTypes: 'TOKEN,PRETGE,POINT',
      }).expect(200);
      expect((withPoints.body as { id: string }[]).map((o) => o.id).sort()).to.deep.equal(expected);
      const count = await get('/v4/creators/pool-partners/opportunities/count', {
        tokenTypes: 'TOKEN,PRETGE,POINT',
      }).expect(200);
      expect(count.body).to.equal(expected.length);
    });

    it('applies CREATOR-OPP-FILTERS and refuses the OPP-FILTERS it excludes', async function () {
      const pools = await get('/v4/creators/pool-partners/opportunities', {
        action: 'POOL',
        items: 100,
        tokenTypes: 'TOKEN,PRETGE,POINT',
      }).expect(200);
      expect((pools.body as { action: string }[]).every((o) => o.action === 'POOL')).to.equal(true);
      expect(
        await fields400('/v4/creators/pool-partners/opportunities', { creatorAddress: DEVNET_LABS }),
      ).to.deep.equal(['creatorAddress']);
      expect(await fields400('/v4/creators/pool-partners/opportunities/count', { page: 1 })).to.deep.equal(['page']);
      await get('/v4/creators/nobody-here/opportunities').expect(404);
    });
  });

  describe('creator identity in the documents', function () {
    it('indexes creatorId, tags and creatorSlugs from the creators table, and re-publishes the documents when a creator changes', async function () {
      const publish = async () => {
        expect((await demo.h.runJob('publish')).status).to.equal('success');
        await demo.h.refresh();
      };
      await publish(); // the demo registered its creators after the first publication: their upsert queued the documents
      const campaigns = (await get('/v4/campaigns', { creatorId: 'pool-partners', items: 100 }).expect(200)).body as {
        creatorAddress: string;
        creator: { address: string; tags: string[]; creatorId: string | null };
      }[];
      expect(campaigns.length).to.be.greaterThan(0);
      for (const c of campaigns)
        expect(c.creator).to.deep.equal({ address: POOL_PARTNERS, tags: ['demo', 'dex'], creatorId: 'pool-partners' });
      expect((await get('/v4/campaigns', { creatorTag: 'dex', items: 100 }).expect(200)).body).to.have.length(
        campaigns.length,
      );
      const opportunities = (
        await get('/v4/opportunities', { creatorSlug: 'pool-partners', status: 'LIVE,SOON,PAST', items: 100 }).expect(
          200,
        )
      ).body as { id: string }[];
      expect(opportunities.length).to.be.greaterThan(0);
      // An implicit creator (no row) keeps a null id.
      const implicit = (await get('/v4/campaigns', { creatorAddress: IMPLICIT, items: 1 }).expect(200)).body as {
        creator: { creatorId: string | null; tags: string[] };
      }[];
      if (implicit[0])
        expect(implicit[0].creator).to.include({ creatorId: null }).and.to.have.property('tags').that.deep.equals([]);

      await upsertCreators(demo.h.deps.pg, [
        { id: 'pool-partners', name: 'Pool Partners', addresses: [POOL_PARTNERS], tags: ['demo', 'dex', 'featured'] },
      ]);
      await publish();
      const after = (await get('/v4/campaigns', { creatorTag: 'featured', items: 100 }).expect(200)).body as {
        creator: { tags: string[] };
      }[];
      expect(after).to.have.length(campaigns.length);
      expect(after[0]!.creator.tags).to.deep.equal(['demo', 'dex', 'featured']);
      // The quick start seeding its demo creators again leaves a curated one as it is.
      await seedCreators(demo.h.deps.pg);
      expect((await get('/v4/creators/pool-partners').expect(200)).body.tags).to.deep.equal([
        'demo',
        'dex',
        'featured',
      ]);
    });

    it("counts the creator's LIVE, SOON and PAST campaigns per opportunity on /v4/creators/{creator}/opportunities", async function () {
      const served = (
        await get('/v4/creators/pool-partners/opportunities', { status: 'LIVE,SOON,PAST', items: 100 }).expect(200)
      ).body as {
        id: string;
        liveCampaignsForCreator: number;
        soonCampaignsForCreator: number;
        pastCampaignsForCreator: number;
      }[];
      expect(served.length).to.be.greaterThan(0);
      const now = Math.floor(Date.now() / 1000);
      let total = 0;
      for (const o of served) {
        const {
          rows: [c],
        } = await demo.h.deps.pg.query<{ live: number; soon: number; past: number }>(
          `SELECT count(*) FILTER (WHERE start_timestamp <= $3 AND end_timestamp > $3)::int AS live, count(*) FILTER (WHERE start_timestamp > $3)::int AS soon,
             count(*) FILTER (WHERE end_timestamp <= $3)::int AS past FROM campaigns_current WHERE opportunity_id = $1 AND creator = $2`,
          [o.id, POOL_PARTNERS, now],
        );
        expect([o.liveCampaignsForCreator, o.soonCampaignsForCreator, o.pastCampaignsForCreator], o.id).to.deep.equal([
          c!.live,
          c!.soon,
          c!.past,
        ]);
        total += c!.live + c!.soon + c!.past;
      }
      expect(total, 'the creator has campaigns there').to.be.greaterThan(0);
    });
  });
});

describe('/v4/creators and private campaigns (audit h-audit): a creator known only by hidden campaigns is unknown', function () {
  /** Creates only the private campaign c6. */
  const P = `0x${'e5'.repeat(20)}`;
  /** Created nothing. */
  const NOBODY = `0x${'e6'.repeat(20)}`;
  /** A grantee of c6. */
  const Z = `0x${'e7'.repeat(20)}`;
  /** Creators of 2,000 public campaigns (10 each): what a read through an index does not walk. */
  const MANY = 200;
  let h: Harness;
  let s: Record<string, SeedCampaign>;
  const as = (address: string) => ({
    Cookie: `jwt=${signSession({ secret: h.config.jwtSecret, address, tier: 0 }).token}`,
  });
  const ROUTES = ['', '/dashboard', '/campaigns', '/opportunities', '/opportunities/count'];

  before(async function () {
    h = await createHarness({ chainIds: [31337] });
    s = seedCampaignsSpec(Math.floor(Date.now() / 1000));
    await seedCampaigns(h, s);
    await h.deps.pg.query('UPDATE campaigns SET creator = $2 WHERE id = $1', [s['c6']!.id, P]);
    // Copies of c1 (public), each its own id and on-chain id, by MANY creators 0x00…01, 0x00…02, ….
    await h.deps.pg.query(
      `INSERT INTO campaigns SELECT (jsonb_populate_record(NULL::campaigns, to_jsonb(c) || jsonb_build_object(
         'id', c.id || '-copy-' || g, 'campaign_id', '0x' || lpad(to_hex(g), 64, '0'),
         'creator', '0x' || lpad(to_hex(1 + g % $2::int), 40, '0')))).*
       FROM campaigns c, generate_series(1, 10 * $2::int) g WHERE c.id = $1`,
      [s['c1']!.id, MANY],
    );
    await h.deps.pg.query('ANALYZE campaigns');
    await h.request().post(`/v4/campaigns/${s['c6']!.id}/access/grant`).set(as(P)).send({ userAddress: Z }).expect(200);
  });
  after(async () => h?.close());

  it('answers an anonymous caller or a stranger about P as about an address that created nothing, on every creator route', async function () {
    for (const headers of [{}, as(NOBODY)]) {
      for (const route of ROUTES) {
        const p = await h.request().get(`/v4/creators/${P}${route}`).set(headers);
        const none = await h.request().get(`/v4/creators/${NOBODY}${route}`).set(headers);
        // The same answer, the address apart (and the request id).
        const shape = (body: Record<string, unknown>, address: string) =>
          JSON.stringify({ ...body, requestId: undefined }).replaceAll(address, '<address>');
        expect([p.status, shape(p.body, P)], route).to.deep.equal([none.status, shape(none.body, NOBODY)]);
        expect(p.status, route).to.equal(404);
      }
      const listed = await h
        .request()
        .get('/v4/creators')
        .set(headers)
        .query({ search: P.slice(0, 10), items: 100 });
      expect(listed.body).to.deep.equal([]);
      expect((await h.request().get('/v4/creators').set(headers).query({ address: P })).body).to.deep.equal([]);
      const all = await h.request().get('/v4/creators').set(headers).query({ items: 100, page: 2 });
      expect(all.body.map((c: { id: string }) => c.id)).to.not.include(P);
    }
  });

  it('serves P to those who may see its campaign: itself, a grantee, the back office', async function () {
    for (const headers of [as(P), as(Z), { authorization: TEST_BACK_OFFICE_TOKEN }]) {
      const one = await h.request().get(`/v4/creators/${P}`).set(headers).expect(200);
      expect(one.body).to.deep.include({ id: P, addresses: [P] });
      const listed = await h
        .request()
        .get('/v4/creators')
        .set(headers)
        .query({ search: P.slice(0, 10) });
      expect(listed.body.map((c: { id: string }) => c.id)).to.deep.equal([P]);
      expect(
        (await h.request().get(`/v4/creators/${P}/dashboard`).set(headers).expect(200)).body.totalCampaigns,
      ).to.equal(1);
    }
  });

  it('reads implicit creators through an index: a few entries per creator served, not the campaigns table', async function () {
    const { rows } = await h.deps.pg.query<{ n: number }>('SELECT count(*)::int AS n FROM campaigns');
    expect(rows[0]!.n).to.be.above(10 * MANY);
    for (const path of [
      `/v4/creators?id=${NOBODY}`,
      `/v4/creators/${NOBODY}`,
      `/v4/creators/${P}`,
      `/v4/creators?search=0x${'0'.repeat(37)}`,
      '/v4/creators?items=5',
      '/v4/creators?items=5&page=3',
    ]) {
      let status = 0;
      const read = await tuplesReadBy(h, ['campaigns'], async (request) => {
        status = (await request.get(path)).status;
      });
      expect(status, path).to.be.oneOf([200, 404]);
      expect(read, `${path}: campaigns rows and index entries read`).to.be.below(100);
    }
    const page = (await h.request().get('/v4/creators').query({ items: 5, page: 3 }).expect(200)).body;
    const ids = page.map((c: { id: string }) => c.id);
    expect(ids).to.have.length(5);
    expect([...ids].sort()).to.deep.equal(ids);
  });
});
