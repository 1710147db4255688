import { expect } from 'chai';
import { forgetChainRows } from '../../../api/chainRecords.js';
import { registeredProtocols } from '../../../domain/protocols.js';
import { createReferenceDemo, type ReferenceDemo } from './referenceDemo.js';

type Protocol = {
  id: string;
  name: string;
  dailyRewards: number;
  numberOfLiveCampaigns: number;
  tags: string[];
} & Record<string, unknown>;

/** Independent figures per protocol type from PostgreSQL at `now`. */
async function expected(demo: ReferenceDemo, type: string, now: number, subCampaigns = true) {
  const { rows } = await demo.h.deps.pg.query<{ live: number; daily: number }>(
    `SELECT (SELECT count(*)::int FROM campaigns_current c JOIN opportunities o ON o.id = c.opportunity_id
              WHERE o.type = $1 AND c.start_timestamp <= $2 AND c.end_timestamp > $2 AND ($3 OR c.parent_campaign_id IS NULL)) AS live,
            (SELECT coalesce(sum(m.daily_rewards), 0)::float8 FROM opportunity_metrics m JOIN opportunities o ON o.id = m.opportunity_id WHERE o.type = $1) AS daily`,
    [type, now, subCampaigns],
  );
  return rows[0]!;
}

describe('GET /v4/protocols on the seeded demo (reference data)', function () {
  let demo: ReferenceDemo;
  const list = async (query: Record<string, unknown>) =>
    (await demo.h.request().get('/v4/protocols/').query(query).expect(200)).body as Protocol[];
  const idsOf = (ps: Protocol[]) => ps.map((p) => p.id).sort();
  const fieldsOf400 = async (query: Record<string, unknown>) =>
    ((await demo.h.request().get('/v4/protocols').query(query).expect(400)).body.errors as { field: string }[])
      .map((e) => e.field)
      .sort();

  before(async function () {
    this.timeout(600_000);
    demo = await createReferenceDemo();
  });

  after(async () => demo?.close());

  /** Protocols with figures: those the demo's opportunities count for (the others are listed with zeros). */
  const activeIdsOf = (ps: Protocol[]) => idsOf(ps.filter((p) => p.numberOfLiveCampaigns > 0));
  const REGISTRY = registeredProtocols()
    .map((p) => p.id)
    .sort();

  it('lists every protocol, those of the campaign types present with every protocol field and aggregated figures', async function () {
    const res = await list({});
    expect(idsOf(res)).to.deep.equal(REGISTRY);
    expect(activeIdsOf(res)).to.deep.equal(['ajna', 'morpho', 'uniswap-v3', 'uniswap-v4']);
    expect(res.find((p) => p.id === 'silo')).to.include({ dailyRewards: 0, numberOfLiveCampaigns: 0 });
    const now = Math.floor(Date.now() / 1000);
    const morpho = res.find((p) => p.id === 'morpho')!;
    expect(morpho).to.have.all.keys(
      'id',
      'name',
      'icon',
      'description',
      'url',
      'tags',
      'dailyRewards',
      'numberOfLiveCampaigns',
      'opportunityLiveTags',
      'banner',
      'opportunityBannerLight',
      'opportunityBannerDark',
      'trustData',
    );
    const e = await expected(demo, 'MORPHO', now);
    expect(morpho).to.deep.include({
      name: 'Morpho',
      tags: ['lending'],
      trustData: null,
      banner: null,
      opportunityLiveTags: [],
      numberOfLiveCampaigns: e.live,
    });
    expect(morpho.dailyRewards).to.be.closeTo(e.daily, 1e-6);
    expect(morpho.numberOfLiveCampaigns).to.be.greaterThan(0);
    const rewards = res.map((p) => p.dailyRewards);
    expect(rewards).to.deep.equal([...rewards].sort((a, b) => b - a));
  });

  it('filters by id, ids and name', async function () {
    expect(idsOf(await list({ id: 'ajna' }))).to.deep.equal(['ajna']);
    expect(await list({ id: 'aave' })).to.deep.equal([]);
    expect(idsOf(await list({ ids: ['ajna', 'morpho', 'aave'] }))).to.deep.equal(['ajna', 'morpho']);
    expect(idsOf(await list({ ids: 'silo' }))).to.deep.equal(['silo']);
    // Issue 31: a comma list works like repeated keys.
    expect(idsOf(await list({ ids: 'ajna,morpho,aave' }))).to.deep.equal(['ajna', 'morpho']);
    expect((await demo.h.request().get('/v4/protocols/ajna').expect(200)).body).to.deep.equal(
      (await list({ id: 'ajna', test: true }))[0],
    );
    await demo.h.request().get('/v4/protocols/aave').expect(404);
    expect(idsOf(await list({ name: 'uniswap' }))).to.deep.equal(['uniswap-v3', 'uniswap-v4']);
    expect(await list({ name: 'curve' })).to.deep.equal([]);
  });

  it('filters by tags (any of) and opportunityTag (opportunities carry no tags yet)', async function () {
    expect(activeIdsOf(await list({ tags: ['lending', 'hooks'] }))).to.deep.equal(['ajna', 'morpho', 'uniswap-v4']);
    expect(idsOf(await list({ tags: 'restaking' }))).to.deep.equal(['eigenlayer']);
    expect(idsOf(await list({ tags: 'lending, hooks' }))).to.deep.equal(
      registeredProtocols()
        .filter((p) => p.tags.includes('lending') || p.tags.includes('hooks'))
        .map((p) => p.id)
        .sort(),
    );
    expect(await list({ opportunityTag: 'blue-chip' })).to.deep.equal([]);
  });

  it('filters by opportunityChain and test', async function () {
    expect(await list({ opportunityChain: 31337 })).to.have.length(4);
    expect(await list({ opportunityChain: '999' })).to.deep.equal([]);
    await demo.h.deps.pg.query('UPDATE chains SET is_test = true WHERE id = 31337');
    forgetChainRows(demo.h.apiPg); // the API keeps chain rows for a while
    try {
      // Every protocol is still listed; only test=true counts the test chain's opportunities.
      expect(activeIdsOf(await list({}))).to.deep.equal([]);
      expect(idsOf(await list({}))).to.deep.equal(REGISTRY);
      expect(activeIdsOf(await list({ test: true }))).to.have.length(4);
    } finally {
      await demo.h.deps.pg.query('UPDATE chains SET is_test = false WHERE id = 31337');
      forgetChainRows(demo.h.apiPg);
    }
  });

  it('filters by status and tokenTypes', async function () {
    expect(await list({ status: 'LIVE' })).to.have.length(4);
    expect(await list({ status: 'SOON,PAST' })).to.deep.equal([]);
    expect(idsOf(await list({ tokenTypes: ['POINT'] }))).to.deep.equal(['ajna', 'morpho', 'uniswap-v3', 'uniswap-v4']);
    expect(await list({ tokenTypes: 'PRETGE' })).to.deep.equal([]);
    await demo.h.deps.pg.query(`UPDATE tokens SET type = 'PRETGE' WHERE symbol = 'PTS'`);
    try {
      expect(await list({ tokenTypes: 'POINT' })).to.deep.equal([]);
      expect(await list({ tokenTypes: ['PRETGE', 'POINT'] })).to.have.length(4);
    } finally {
      await demo.h.deps.pg.query(`UPDATE tokens SET type = 'POINT' WHERE symbol = 'PTS'`);
    }
  });

  it('excludeSubCampaigns leaves sub-campaigns out of numberOfLiveCampaigns', async function () {
    // The demo's two sub-campaigns sit under an ERC20 hold market, which names no protocol: move one opportunity's type to check.
    const now = Math.floor(Date.now() / 1000);
    const { rows } = await demo.h.deps.pg.query<{ opportunity_id: string }>(
      'SELECT DISTINCT opportunity_id FROM campaigns_current WHERE parent_campaign_id IS NOT NULL',
    );
    await demo.h.deps.pg.query(`UPDATE opportunities SET type = 'EULER' WHERE id = ANY($1)`, [
      rows.map((r) => r.opportunity_id),
    ]);
    const withSubs = (await list({ id: 'euler' }))[0]!;
    const without = (await list({ id: 'euler', excludeSubCampaigns: true }))[0]!;
    expect(withSubs.numberOfLiveCampaigns).to.equal((await expected(demo, 'EULER', now)).live);
    expect(without.numberOfLiveCampaigns).to.equal((await expected(demo, 'EULER', now, false)).live);
    expect(withSubs.numberOfLiveCampaigns - without.numberOfLiveCampaigns).to.equal(2);
  });

  it('pages with page and items', async function () {
    const all = await list({ items: 100 });
    expect(await list({ items: 2, page: 1 })).to.deep.equal(all.slice(2, 4));
  });

  it('answers 400 naming each bad field', async function () {
    expect(
      await fieldsOf400({
        status: 'LIVE,NOW',
        tokenTypes: 'COIN',
        opportunityChain: 'x',
        test: 'maybe',
        excludeSubCampaigns: 3,
        items: 0,
      }),
    ).to.deep.equal(['excludeSubCampaigns', 'items', 'opportunityChain', 'status', 'test', 'tokenTypes.0']);
    expect(await fieldsOf400({ id: '', unknown: 1 })).to.deep.equal(['id', 'unknown']);
  });
});
