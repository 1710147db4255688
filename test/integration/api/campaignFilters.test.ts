import { expect } from 'chai';
import { createHarness, type Harness } from '../../helpers/harness.js';
import {
  seedCampaigns,
  seedCampaignsSpec,
  TOKENS,
  X,
  Y,
  type SeedCampaign,
} from '../../fixtures/api/campaigns/seed.js';

const DAY = 86_400;

describe('GET /v4/campaigns filters on seeded campaigns (PostgreSQL → publish job → Elasticsearch)', function () {
  let h: Harness;
  let now: number;
  let s: Record<string, SeedCampaign>;
  const ids = (...keys: string[]) => keys.map((k) => s[k]!.id).sort();

  before(async function () {
    h = await createHarness();
    now = Math.floor(Date.now() / 1000);
    s = seedCampaignsSpec(now);
    await seedCampaigns(h, s);
    await h.deps.pg.query('INSERT INTO campaign_lists (owner, name, campaign_ids) VALUES ($1, $2, $3)', [
      X,
      'favs',
      [s['c1']!.id, s['c3']!.id],
    ]);
  });

  after(async () => h?.close());

  async function list(query: Record<string, unknown>): Promise<string[]> {
    const res = await h
      .request()
      .get('/v4/campaigns/')
      .query({ items: 100, ...query })
      .expect(200);
    return res.body.map((c: { id: string }) => c.id).sort();
  }

  /** [title, query, expected campaign keys]: at least one positive and one negative case per filter. */
  const CASES: [string, () => Record<string, unknown>, string[]][] = [
    ['no filter: test tokens and private campaigns excluded', () => ({}), ['c1', 'c2', 'c3', 'c5']],
    ['id comma list', () => ({ id: `${s['c1']!.id},${s['c2']!.id}` }), ['c1', 'c2']],
    ['id repeated keys', () => ({ id: [s['c1']!.id, s['c5']!.id] }), ['c1', 'c5']],
    ['id unknown', () => ({ id: '12345' }), []],
    ['creatorTag', () => ({ creatorTag: 'partner' }), ['c1']],
    ['creatorTag unknown', () => ({ creatorTag: 'nobody' }), []],
    ['creatorAddress (any case)', () => ({ creatorAddress: X.toUpperCase().replace('0X', '0x') }), ['c1', 'c3']],
    ['creatorAddress unknown', () => ({ creatorAddress: `0x${'99'.repeat(20)}` }), []],
    ['creatorAddresses comma list', () => ({ creatorAddresses: `${X},${Y}` }), ['c1', 'c2', 'c3', 'c5']],
    ['creatorAddresses repeated keys', () => ({ creatorAddresses: [Y] }), ['c2', 'c5']],
    ['creatorAddresses unknown', () => ({ creatorAddresses: `0x${'99'.repeat(20)}` }), []],
    ['creatorId', () => ({ creatorId: 'cr-1' }), ['c1']],
    ['creatorId unknown', () => ({ creatorId: 'cr-2' }), []],
    ['chainId (compute chain)', () => ({ chainId: 31338 }), ['c2', 'c5']],
    ['chainId without campaigns', () => ({ chainId: 1 }), []],
    ['search, accents and case folded', () => ({ search: 'CRÈME' }), ['c1', 'c2']],
    ['search by prefix', () => ({ search: 'crem tok' }), ['c1', 'c2']],
    ['search without match', () => ({ search: 'zzzz' }), []],
    // Issue 31: a word of the opportunity's name ("Hold 0x…") finds its campaigns; each word may match either text.
    ['search by a word of the opportunity name', () => ({ search: 'Hold' }), ['c1', 'c2', 'c3', 'c5']],
    ['search mixing opportunity and campaign words', () => ({ search: 'hold crème' }), ['c1', 'c2']],
    ['search with a word nothing has', () => ({ search: 'hold zzzz' }), []],
    ['distributionChainIds', () => ({ distributionChainIds: '31338' }), ['c5']],
    [
      'distributionChainIds repeated keys',
      () => ({ distributionChainIds: ['31337', '31338'] }),
      ['c1', 'c2', 'c3', 'c5'],
    ],
    ['distributionChainIds without campaigns', () => ({ distributionChainIds: '5' }), []],
    ['type by name', () => ({ type: 'CLAMM' }), ['c2']],
    ['type by number', () => ({ type: '2' }), ['c2']],
    ['types list', () => ({ types: 'ERC20,JSON_AIRDROP' }), ['c1', 'c3', 'c5']],
    ['type has priority over types', () => ({ type: 'clamm', types: 'ERC20' }), ['c2']],
    ['types without campaigns', () => ({ types: 'MORPHO' }), []],
    ['subType', () => ({ subType: 3 }), ['c1']],
    ['subType without campaigns', () => ({ subType: 4 }), []],
    ['campaignId (any case)', () => ({ campaignId: s['c2']!.onChainId.toUpperCase().replace('0X', '0x') }), ['c2']],
    ['campaignIds', () => ({ campaignIds: `${s['c1']!.onChainId},${s['c3']!.onChainId}` }), ['c1', 'c3']],
    [
      'campaignId has priority over campaignIds',
      () => ({ campaignId: s['c2']!.onChainId, campaignIds: s['c1']!.onChainId }),
      ['c2'],
    ],
    ['campaignId unknown', () => ({ campaignId: `0x${'ee'.repeat(32)}` }), []],
    ['mainParameter (any case)', () => ({ mainParameter: s['c2']!.main.toUpperCase().replace('0X', '0x') }), ['c2']],
    ['mainParameter unknown', () => ({ mainParameter: 'nothing' }), []],
    ['tokenSymbol (any case)', () => ({ tokenSymbol: 'pts' }), ['c3']],
    ['tokenSymbol unknown', () => ({ tokenSymbol: 'NOPE' }), []],
    ['tokenAddress', () => ({ tokenAddress: TOKENS.rwd.address }), ['c1', 'c2']],
    ['tokenAddress with its chainId', () => ({ tokenAddress: TOKENS.pre.address, chainId: 31338 }), ['c5']],
    ['tokenAddress with another chainId', () => ({ tokenAddress: TOKENS.rwd.address, chainId: 31338 }), []],
    ['test=true includes test-token campaigns', () => ({ test: 'true' }), ['c1', 'c2', 'c3', 'c4', 'c5']],
    ['test=false excludes them', () => ({ test: 'false', tokenSymbol: 'TST' }), []],
    ['tokenTypes', () => ({ tokenTypes: 'PRETGE,POINT' }), ['c3', 'c5']],
    ['tokenTypes repeated keys', () => ({ tokenTypes: ['TOKEN'] }), ['c1', 'c2']],
    ['point=true', () => ({ point: 'true' }), ['c3']],
    ['point=false', () => ({ point: 'false' }), ['c1', 'c2', 'c5']],
    ['opportunityId', () => ({ opportunityId: s['c1']!.opportunityId }), ['c1']],
    ['opportunityIds', () => ({ opportunityIds: `${s['c1']!.opportunityId},${s['c2']!.opportunityId}` }), ['c1', 'c2']],
    [
      'opportunityId has priority over opportunityIds',
      () => ({ opportunityId: s['c5']!.opportunityId, opportunityIds: s['c1']!.opportunityId }),
      ['c5'],
    ],
    ['opportunityId unknown', () => ({ opportunityId: '1' }), []],
    ['status LIVE', () => ({ status: 'LIVE' }), ['c1', 'c5']],
    ['status SOON,PAST', () => ({ status: 'SOON,PAST' }), ['c2', 'c3']],
    ['startTimestamp: starting after', () => ({ startTimestamp: now }), ['c2']],
    ['startTimestamp: none after', () => ({ startTimestamp: now + 100 * DAY }), []],
    ['endTimestamp: ending after', () => ({ endTimestamp: now + 7.5 * DAY }), ['c2', 'c5']],
    ['endTimestamp: none after', () => ({ endTimestamp: now + 100 * DAY }), []],
    ['distributionTypes FIX_REWARD', () => ({ distributionTypes: 'FIX_REWARD' }), ['c1']],
    [
      'distributionTypes DUTCH_AUCTION,TOTAL_APR',
      () => ({ distributionTypes: 'DUTCH_AUCTION,TOTAL_APR' }),
      ['c2', 'c3', 'c5'],
    ],
    ['distributionTypes MAX_REWARD', () => ({ distributionTypes: 'MAX_REWARD' }), []],
    ['createdAfter date string', () => ({ createdAfter: '2024-04-01' }), ['c3', 'c5']],
    ['createdAfter date-time string', () => ({ createdAfter: '2024-04-01T00:00:00.000Z' }), ['c3', 'c5']],
    ['createdAfter unix seconds', () => ({ createdAfter: '1711929600' }), ['c3', 'c5']],
    ['createdAfter unix milliseconds', () => ({ createdAfter: '1711929600000' }), ['c3', 'c5']],
    ['createdAfter Date#toString', () => ({ createdAfter: new Date('2024-04-01T00:00:00Z').toString() }), ['c3', 'c5']],
    ['createdAfter null: no bound', () => ({ createdAfter: 'null' }), ['c1', 'c2', 'c3', 'c5']],
    ['createdAfter in the future', () => ({ createdAfter: '2030-01-01' }), []],
    ['createdBefore', () => ({ createdBefore: '2024-02-01' }), ['c1']],
    ['createdAfter and createdBefore', () => ({ createdAfter: '2024-02-01', createdBefore: 1717200000 }), ['c2', 'c3']],
    ['createdBefore before everything', () => ({ createdBefore: '2020-01-01' }), []],
    ['excludeSubCampaigns', () => ({ excludeSubCampaigns: 'true' }), ['c1', 'c5']],
    ['onlySubCampaigns', () => ({ onlySubCampaigns: 'true' }), ['c2', 'c3']],
    [
      'onlySubCampaigns with excludeSubCampaigns',
      () => ({ onlySubCampaigns: 'true', excludeSubCampaigns: 'true' }),
      [],
    ],
    ['rootCampaignId', () => ({ rootCampaignId: s['c1']!.id }), ['c2', 'c3']],
    ['rootCampaignId of a leaf', () => ({ rootCampaignId: s['c3']!.id }), []],
    ['parentCampaignId', () => ({ parentCampaignId: s['c2']!.id }), ['c3']],
    ['parentCampaignId without children', () => ({ parentCampaignId: s['c5']!.id }), []],
    ['mainProtocolId', () => ({ mainProtocolId: 'uniswap-v3' }), ['c2']],
    ['mainProtocolId without campaigns', () => ({ mainProtocolId: 'morpho' }), []],
    ['pauseCompute exact', () => ({ pauseCompute: 'paused_no_credits' }), ['c1']],
    ['pauseCompute other reason', () => ({ pauseCompute: 'paused_no_credits_needs_indexing' }), []],
    [
      'showPrivate=true still hides private campaigns (no caller is authorized)',
      () => ({ showPrivate: 'true', id: s['c6']!.id }),
      [],
    ],
    ['campaignLists (names case-insensitive)', () => ({ listOwner: X, campaignLists: 'FAVS' }), ['c1', 'c3']],
    [
      'campaignLists union with an unknown list',
      () => ({ listOwner: X.toUpperCase().replace('0X', '0x'), campaignLists: 'favs,other' }),
      ['c1', 'c3'],
    ],
    ['campaignLists of another owner', () => ({ listOwner: Y, campaignLists: 'favs' }), []],
  ];

  for (const [title, query, expected] of CASES) {
    it(`filters: ${title}`, async function () {
      expect(await list(query())).to.deep.equal(ids(...expected));
    });
  }

  it('serves the private campaign to nobody, by id either', async function () {
    await h.request().get(`/v4/campaigns/${s['c6']!.id}`).query({ showPrivate: 'true' }).expect(404);
  });

  it('answers showPrivate=true with private, no-store', async function () {
    const res = await h.request().get('/v4/campaigns').query({ showPrivate: 'true' }).expect(200);
    expect(res.headers['cache-control']).to.equal('private, no-store');
    const pub = await h.request().get('/v4/campaigns').expect(200);
    expect(pub.headers['cache-control']).to.match(/^public/);
  });

  it('answers 400 naming listOwner when campaignLists comes alone', async function () {
    const res = await h.request().get('/v4/campaigns').query({ campaignLists: 'favs' }).expect(400);
    expect(res.body.errors).to.deep.equal([{ field: 'listOwner', message: 'is required when campaignLists is set' }]);
  });

  for (const [query, field] of [
    [{ createdAfter: 'yesterday-ish' }, 'createdAfter'],
    [{ createdBefore: '2024-13-45' }, 'createdBefore'],
    [{ tokenTypes: 'COIN' }, 'tokenTypes'],
    [{ distributionTypes: 'FIX' }, 'distributionTypes'],
    [{ creatorAddress: '0x12' }, 'creatorAddress'],
    [{ subType: 'x' }, 'subType'],
    [{ status: 'FUTURE' }, 'status'],
    [{ point: 'maybe' }, 'point'],
  ] as const) {
    it(`answers 400 naming ${field} for ${JSON.stringify(query)}`, async function () {
      const res = await h.request().get('/v4/campaigns').query(query).expect(400);
      // Array parameters are named with the index of the bad item (tokenTypes.0).
      expect(res.body.errors.map((e: { field: string }) => e.field.split('.')[0])).to.include(field);
    });
  }

  it('refuses a search of more than 8 words, naming search (each word is one opportunity lookup)', async function () {
    const res = await h.request().get('/v4/campaigns').query({ search: 'a b c d e f g h i' }).expect(400);
    expect(res.body.errors.map((e: { field: string }) => e.field)).to.deep.equal(['search']);
    await h.request().get('/v4/campaigns').query({ search: 'a b c d e f g h' }).expect(200);
  });

  it('attaches the light opportunity with withOpportunity=true, and only then', async function () {
    const res = await h.request().get('/v4/campaigns').query({ withOpportunity: 'true', id: s['c1']!.id }).expect(200);
    expect(res.body[0].opportunity, 'issue 31: named like every other field').to.include({
      id: s['c1']!.opportunityId,
      identifier: s['c1']!.main,
      chainId: 31337,
      action: 'HOLD',
    });
    expect(res.body[0].opportunity).to.have.property('status');
    expect(res.body[0].Opportunity, 'the deprecated name the published client reads').to.deep.equal(
      res.body[0].opportunity,
    );
    const plain = await h.request().get('/v4/campaigns').query({ id: s['c1']!.id }).expect(200);
    expect(plain.body[0]).not.to.have.property('opportunity');
    expect(plain.body[0]).not.to.have.property('Opportunity');
  });

  it('pages the filtered set without repeating or skipping', async function () {
    const seen: string[] = [];
    for (let page = 0; page < 3; page++)
      seen.push(
        ...(await h.request().get('/v4/campaigns').query({ test: 'true', page, items: 2 }).expect(200)).body.map(
          (c: { id: string }) => c.id,
        ),
      );
    expect(seen.sort()).to.deep.equal(ids('c1', 'c2', 'c3', 'c4', 'c5'));
  });

  it('serializes sub-campaign links and the document-only fields', async function () {
    const [c2] = (await h.request().get('/v4/campaigns').query({ id: s['c2']!.id }).expect(200)).body;
    expect(c2).to.include({
      parentCampaignId: s['c1']!.id,
      rootCampaignId: s['c1']!.id,
      subType: null,
      pauseCompute: null,
      isPrivate: false,
    });
    const [c1] = (await h.request().get('/v4/campaigns').query({ id: s['c1']!.id }).expect(200)).body;
    expect(c1.childCampaignIds).to.deep.equal([s['c2']!.id]);
    expect(c1).to.include({
      subType: 3,
      pauseCompute: 'paused_no_credits',
      distributionType: 'FIX_REWARD_VALUE_PER_LIQUIDITY_VALUE',
    });
    expect(c1.creator).to.deep.equal({ address: X, tags: ['partner'], creatorId: 'cr-1' });
    expect(c1).not.to.have.any.keys('distributionFamily', 'mainProtocolId', 'searchText');
  });
});
