import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import supertest from 'supertest';
import { toCampaignDocument } from '../../../domain/documents/campaignDocument.js';
import type { OpportunityDocument } from '../../../domain/documents/opportunityDocument.js';
import { upsertChains } from '../../../domain/tables/chains.js';
import { indexNames } from '../../../internal/es.js';
import { createLogger } from '../../../internal/logger.js';
import {
  syntheticIdentifier,
  syntheticOpportunityDocument,
} from '../../fixtures/api/opportunities/syntheticOpportunity.js';
import { campaignSource } from '../../fixtures/indexer/campaignSource.js';
import { createHarness, type Harness } from '../../helpers/harness.js';

const NOW = 2_000_000_000;
const AAA = '0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
const PRIVATE_CAMPAIGN_ID = `0x${'cd'.repeat(32)}`;

describe('GET /v4/opportunities (filters, sort, count, bins, aggregates, by id, records)', function () {
  let h: Harness;
  let request: () => ReturnType<typeof supertest>;
  const docs: Record<string, OpportunityDocument> = {};
  const idsOf = (body: { id: string }[]) => body.map((o) => o.id);
  const ids = (...names: string[]) => names.map((n) => docs[n]!.id);

  before(async function () {
    h = await createHarness({ chainIds: [31337] });
    await upsertChains(h.deps.pg, h.config.chains);
    request = () =>
      supertest(
        h
          .createApp({
            logger: createLogger({ level: 'silent', name: 'test' }),
            now: () => NOW,
          })
          .callback(),
      );
    const d = (o: Parameters<typeof syntheticOpportunityDocument>[0]) => syntheticOpportunityDocument(o, NOW);
    docs['A'] = d({
      i: 1,
      symbol: 'Crème',
      tvl: 1000,
      apr: 12,
      daily: 5,
      creator: AAA,
      stablecoin: true,
      createdAt: NOW - 10,
      tags: ['featured', 'blue-chip'],
    });
    docs['B'] = d({
      i: 2,
      campaignType: 2,
      action: 'POOL',
      symbol: 'TLP',
      windows: [[NOW + 500, NOW + 900]],
      tvl: 1e6,
      apr: 150,
      daily: 300,
      reward: { symbol: 'USDC' },
      createdAt: NOW - 20,
      tags: ['featured'],
      programSlugs: ['p2'],
    });
    docs['C'] = d({
      i: 3,
      campaignType: 7,
      action: 'LEND',
      symbol: 'mUSD',
      windows: [[NOW - 900, NOW - 500]],
      reward: { symbol: 'PTS', type: 'POINT' },
      createdAt: NOW - 30,
    });
    docs['D'] = d({
      i: 4,
      symbol: 'TSTX',
      tvl: 50,
      apr: 3,
      daily: 1,
      reward: { symbol: 'TST', isTest: true },
      createdAt: NOW - 40,
    });
    docs['E'] = d({
      i: 5,
      campaignType: 0,
      action: 'INVALID',
      symbol: 'BAD',
      tvl: 20,
      apr: 1,
      daily: 0.5,
      createdAt: NOW - 50,
    });
    docs['F'] = d({
      i: 6,
      symbol: 'wETH',
      windows: [
        [NOW - 900, NOW - 500],
        [NOW - 100, NOW + 100],
      ],
      tvl: 250_000,
      apr: 40,
      daily: 27,
      creator: AAA,
      createdAt: NOW - 5,
    });
    const write = indexNames(h.config.esIndexPrefix, 'opportunities').write;
    const campaign = toCampaignDocument(
      campaignSource({
        id: 'c1',
        opportunity_id: docs['A']!.id,
        main_parameter: syntheticIdentifier(1),
        token_is_test: false,
        token_type: 'TOKEN',
      }),
      new Map(),
      new Date(NOW * 1000),
    );
    const pointCampaign = toCampaignDocument(
      campaignSource({
        id: 'c2',
        opportunity_id: docs['A']!.id,
        main_parameter: syntheticIdentifier(1),
        token_is_test: false,
        token_type: 'POINT',
      }),
      new Map(),
      new Date(NOW * 1000),
    );
    // A private campaign of B: the public projection never names it (campaignId filter below).
    const privateCampaign = toCampaignDocument(
      campaignSource({
        id: 'c3',
        campaign_id: PRIVATE_CAMPAIGN_ID,
        opportunity_id: docs['B']!.id,
        main_parameter: syntheticIdentifier(2),
        is_private: true,
      }),
      new Map(),
      new Date(NOW * 1000),
    );
    const res = await h.deps.es.bulk({
      refresh: true,
      operations: [
        ...Object.values(docs).flatMap((doc) => [{ index: { _index: write, _id: doc.id } }, doc]),
        { index: { _index: indexNames(h.config.esIndexPrefix, 'campaigns').write, _id: 'c1' } },
        campaign,
        { index: { _index: indexNames(h.config.esIndexPrefix, 'campaigns').write, _id: 'c2' } },
        pointCampaign,
        { index: { _index: indexNames(h.config.esIndexPrefix, 'campaigns').write, _id: 'c3' } },
        privateCampaign,
      ],
    });
    expect(res.errors, JSON.stringify(res.items.find((i) => i.index?.error))).to.equal(false);
  });

  after(async () => {
    await h?.close();
  });

  const cases: [string, Record<string, string | number>, string[]][] = [
    ['default: live/soon, no test, point or invalid; newest last campaign first', {}, ['F', 'A', 'B']],
    ['chainId +', { chainId: '31337,1' }, ['F', 'A', 'B']],
    ['chainId −', { chainId: '1' }, []],
    ['action +', { action: 'POOL' }, ['B']],
    ['action − (point-only LEND hidden)', { action: 'LEND' }, []],
    ['point=true shows point-only opportunities', { action: 'LEND', point: 'true' }, ['C']],
    ['tokenTypes POINT', { tokenTypes: 'POINT' }, ['C']],
    ['tokenTypes TOKEN', { tokenTypes: 'TOKEN,PRETGE' }, ['F', 'A', 'B']],
    ['test=1 shows test-token opportunities', { test: '1' }, ['F', 'A', 'B', 'D']],
    ['test=false', { test: 'false' }, ['F', 'A', 'B']],
    ['withInvalids=true', { withInvalids: 'true' }, ['F', 'A', 'B', 'E']],
    ['type +', { type: 'CLAMM' }, ['B']],
    ['type −', { type: 'MORPHO' }, []],
    ['campaignTypes +', { campaignTypes: '2,13' }, ['B']],
    ['campaignTypes −', { campaignTypes: '7' }, []],
    ['creatorAddress +', { creatorAddress: AAA.toUpperCase().replace('0X', '0x') }, ['F', 'A']],
    ['creatorAddress −', { creatorAddress: `0x${'e'.repeat(40)}` }, []],
    ['creatorSlug + (an address)', { creatorSlug: AAA }, ['F', 'A']],
    ['creatorSlug −', { creatorSlug: 'acme' }, []],
    ['tags +', { tags: 'featured' }, ['A', 'B']],
    ['tags + (any of a list)', { tags: 'blue-chip,nope' }, ['A']],
    ['tags −', { tags: 'nope' }, []],
    ['programSlugs +', { programSlugs: 'p1,p2' }, ['B']],
    ['programSlugs −', { programSlugs: 'p1' }, []],
    ['TVL range +', { minimumTvl: 1000, maximumTvl: 300_000 }, ['F', 'A']],
    ['TVL range −', { minimumTvl: 2e6 }, []],
    ['APR min', { minimumApr: 40 }, ['F', 'B']],
    ['APR max', { maximumApr: 12 }, ['A']],
    ['daily rewards min', { minimumDailyRewards: 100 }, ['B']],
    ['daily rewards max −', { maximumDailyRewards: 1 }, []],
    ['minimumCreatedAt', { minimumCreatedAt: NOW - 10 }, ['F', 'A']],
    ['maximumCreatedAt', { maximumCreatedAt: NOW - 15 }, ['B']],
    ['status LIVE (from windows)', { status: 'LIVE' }, ['F', 'A']],
    ['status SOON', { status: 'SOON' }, ['B']],
    ['status PAST − (only a point opportunity is past)', { status: 'PAST' }, []],
    ['status PAST +', { status: 'PAST', point: '1' }, ['C']],
    ['status LIVE,SOON', { status: 'LIVE,SOON' }, ['F', 'A', 'B']],
    [
      'identifier + (case-insensitive)',
      { identifier: syntheticIdentifier(1).toUpperCase().replace('0X', '0x') },
      ['A'],
    ],
    ['identifier −', { identifier: syntheticIdentifier(99) }, []],
    ['tokens +', { tokens: 'tlp,zzz' }, ['B']],
    ['tokens −', { tokens: 'ZZZ' }, []],
    ['stablecoin=true', { stablecoin: 'true' }, ['A']],
    ['stablecoin=0', { stablecoin: '0' }, ['F', 'A', 'B']],
    ['rewardTokenSymbol +', { rewardTokenSymbol: 'usdc' }, ['B']],
    ['rewardTokenSymbol −', { rewardTokenSymbol: 'NOPE' }, []],
    ['distributionTypes +', { distributionTypes: 'DUTCH_AUCTION' }, ['F', 'A', 'B']],
    ['distributionTypes −', { distributionTypes: 'FIX_REWARD,MAX_REWARD' }, []],
    ['mainProtocolId +', { mainProtocolId: 'uniswap-v3' }, ['B']],
    ['mainProtocolId −', { mainProtocolId: 'aave' }, []],
    ['chainName + (case-insensitive)', { chainName: 'test chain 31337' }, ['F', 'A', 'B']],
    ['chainName −', { chainName: 'Ethereum' }, []],
    ['explorerAddress +', { explorerAddress: syntheticIdentifier(6) }, ['F']],
    ['explorerAddress −', { explorerAddress: syntheticIdentifier(98) }, []],
    ['campaignId unknown → []', { campaignId: `0x${'de'.repeat(32)}` }, []],
    ['search: accent-insensitive', { search: 'CREME' }, ['A']],
    ['search: prefix with accent', { search: 'crè' }, ['A']],
    ['search: protocol name', { search: 'uniswap' }, ['B']],
    ['search: no match', { search: 'zzzq' }, []],
    ['search: a reward-token symbol alone is no match (issue 31; rewardTokenSymbol is)', { search: 'USDC' }, []],
    ['search: the target token symbol', { search: 'TLP' }, ['B']],
    ['name: prefix', { name: 'provide liq' }, ['B']],
    ['name: not the protocol', { name: 'uniswap' }, []],
    ['excludeSubCampaigns keeps opportunities with a root campaign', { excludeSubCampaigns: 'true' }, ['F', 'A', 'B']],
    ['sort tvl asc', { sort: 'tvl', order: 'asc' }, ['A', 'F', 'B']],
    ['sort apr', { sort: 'apr' }, ['B', 'F', 'A']],
    ['sort rewards', { sort: 'rewards' }, ['B', 'F', 'A']],
    ['sort earliestCampaignStart asc', { sort: 'earliestCampaignStart', order: 'asc' }, ['F', 'A', 'B']],
  ];
  for (const [title, query, expected] of cases) {
    it(`filters: ${title}`, async function () {
      const res = await request().get('/v4/opportunities/').query(query).expect(200);
      expect(idsOf(res.body)).to.deep.equal(ids(...expected));
    });
  }

  it('filters by on-chain campaign id (any case), looked up among public campaigns', async function () {
    const campaignId = `0x${'AB'.repeat(32)}`;
    const res = await request()
      .get('/v4/opportunities')
      .query({ campaignId, id: `${docs['A']!.id},${docs['B']!.id}` })
      .expect(200);
    expect(idsOf(res.body)).to.deep.equal(ids('A'));
    expect((await request().get('/v4/opportunities/count').query({ campaignId }).expect(200)).body).to.equal(1);
    const sum = await request().get('/v4/opportunities/aggregate/tvl').query({ campaignId }).expect(200);
    expect(sum.body).to.deep.equal({ sum: '1000' });
  });

  it('never finds an opportunity by the id of a private campaign', async function () {
    const res = await request().get('/v4/opportunities').query({ campaignId: PRIVATE_CAMPAIGN_ID }).expect(200);
    expect(res.body).to.deep.equal([]);
    expect(
      (await request().get('/v4/opportunities/count').query({ campaignId: PRIVATE_CAMPAIGN_ID }).expect(200)).body,
    ).to.equal(0);
  });

  it('breaks sort ties by id', async function () {
    const res = await request().get('/v4/opportunities').query({ sort: 'latestCampaignEnd' }).expect(200);
    expect(idsOf(res.body)).to.deep.equal([docs['B']!.id, ...[docs['A']!.id, docs['F']!.id].sort()]);
  });

  it('serializes the Opportunity record with read-time status, current chain and string bigints', async function () {
    const [f] = (await request().get('/v4/opportunities').query({ id: docs['F']!.id }).expect(200)).body;
    expect(f).to.include({
      status: 'LIVE',
      liveCampaigns: 1,
      earliestCampaignStart: String(NOW - 900),
      latestCampaignEnd: String(NOW + 100),
      tvl: 250_000,
      name: 'Hold wETH',
    });
    expect(f.chain).to.include({ id: 31337, name: 'Test chain 31337' });
    expect(f).not.to.have.any.keys('searchText', 'searchName', 'campaignWindows', 'allRewardsTest', 'programSlugs');
    expect(f).to.include.keys(
      'aprRecord',
      'nativeAprRecord',
      'tvlRecord',
      'rewardsRecord',
      'tokens',
      'protocol',
      'activePrograms',
    );
  });

  it('includes campaigns with campaigns=true', async function () {
    const res = await request().get('/v4/opportunities').query({ campaigns: 'true' }).expect(200);
    // Every token type, as /{id}/campaigns serves them.
    expect(
      res.body
        .find((o: { id: string }) => o.id === docs['A']!.id)
        .campaigns.map((c: { id: string }) => c.id)
        .sort(),
    ).to.deep.equal(['c1', 'c2']);
    expect(res.body.find((o: { id: string }) => o.id === docs['B']!.id).campaigns).to.deep.equal([]);
  });

  it('rejects bad parameters naming the field', async function () {
    for (const [query, field] of [
      [{ items: 101 }, 'items'],
      [{ sort: 'name' }, 'sort'],
      [{ status: 'NOW' }, 'status'],
      [{ nope: 1 }, 'nope'],
      [{ chainId: 'x' }, 'chainId'],
    ] as const) {
      const res = await request().get('/v4/opportunities').query(query).expect(400);
      expect(res.body.errors.map((e: { field: string }) => e.field)).to.include(field);
    }
  });

  it('counts the filtered set as a bare number', async function () {
    expect((await request().get('/v4/opportunities/count').expect(200)).body).to.equal(3);
    expect(
      (await request().get('/v4/opportunities/count').query({ point: 'true', test: 'true' }).expect(200)).body,
    ).to.equal(5);
    expect((await request().get('/v4/opportunities/count').query({ chainId: '5' }).expect(200)).body).to.equal(0);
  });

  for (const [path, field] of [
    ['apr', 'apr'],
    ['tvl', 'tvl'],
    ['daily-rewards', 'dailyRewards'],
  ] as const) {
    it(`bins/${path}: edges cover the filtered set, counts match a direct computation`, async function () {
      const query = { test: 'true', point: 'true', withInvalids: 'true' };
      const { data } = (await request().get(`/v4/opportunities/bins/${path}`).query(query).expect(200)).body as {
        data: { min: number; max: number; count: number }[];
      };
      // Every fixture here has a known figure (unknown ones: unknownTvl.test.ts).
      const values = Object.values(docs).map((d) => d[field] as number);
      expect(data.reduce((s, b) => s + b.count, 0)).to.equal(values.length);
      data.forEach((b, i) =>
        expect(b.count, `bin ${b.min}-${b.max}`).to.equal(
          values.filter((v) => v >= b.min && (v < b.max || i === data.length - 1)).length,
        ),
      );
      expect(data[0]!.min).to.equal(0);
      expect(data[data.length - 1]!.max).to.be.greaterThan(Math.max(...values));
    });
  }

  it('bins of an empty set are empty', async function () {
    expect((await request().get('/v4/opportunities/bins/tvl').query({ chainId: '5' }).expect(200)).body).to.deep.equal({
      data: [],
    });
  });

  for (const query of [
    {},
    { test: 'true', point: 'true', withInvalids: 'true' },
    { status: 'LIVE' },
    { action: 'POOL' },
    { chainId: '5' },
  ] as Record<string, string>[]) {
    it(`summary ${JSON.stringify(query)}: the count, sums, APR range and bins the separate endpoints answer, in one object`, async function () {
      const get = async (path: string) =>
        (await request().get(`/v4/opportunities${path}`).query(query).expect(200)).body;
      const [summary, count, tvl, daily, minApr, maxApr, apr, tvlBins, dailyBins] = await Promise.all(
        [
          '/summary',
          '/count',
          '/aggregate/tvl',
          '/aggregate/dailyRewards',
          '/aggregate/min/apr',
          '/aggregate/max/apr',
          '/bins/apr',
          '/bins/tvl',
          '/bins/daily-rewards',
        ].map(get),
      );
      expect(summary).to.deep.equal({
        count,
        tvl: tvl.sum,
        dailyRewards: daily.sum,
        minApr: minApr.min,
        maxApr: maxApr.max,
        bins: { apr: apr.data, tvl: tvlBins.data, dailyRewards: dailyBins.data },
      });
      if (!query['chainId']) expect(summary.count).to.be.greaterThan(0);
    });
  }

  it('summary answers 400 naming a bad filter', async function () {
    const res = await request().get('/v4/opportunities/summary').query({ chainId: 'abc' }).expect(400);
    expect(JSON.stringify(res.body)).to.include('chainId');
  });

  it('aggregates sums, max and min as decimal strings over the filtered set', async function () {
    expect((await request().get('/v4/opportunities/aggregate/tvl').expect(200)).body).to.deep.equal({
      sum: String(1000 + 1e6 + 250_000),
    });
    expect((await request().get('/v4/opportunities/aggregate/max/apr').expect(200)).body).to.deep.equal({ max: '150' });
    expect(
      (await request().get('/v4/opportunities/aggregate/min/dailyRewards').query({ status: 'LIVE' }).expect(200)).body,
    ).to.deep.equal({ min: '5' });
    expect(
      (await request().get('/v4/opportunities/aggregate/max/apr').query({ chainId: '5' }).expect(200)).body,
    ).to.deep.equal({ max: null });
  });

  it('aggregates grouped buckets by chainId and protocolId', async function () {
    expect((await request().get('/v4/opportunities/aggregate/chainId').expect(200)).body).to.deep.equal([
      { key: '31337', count: 3, tvl: 1_251_000, dailyRewards: 332 },
    ]);
    const protocols = (await request().get('/v4/opportunities/aggregate/protocolId').expect(200)).body;
    expect(protocols.find((b: { key: string }) => b.key === 'uniswap-v3')).to.deep.equal({
      key: 'uniswap-v3',
      count: 1,
      tvl: 1e6,
      dailyRewards: 300,
    });
  });

  it('answers max and min of every aggregate field (issue 31): chainId as a decimal, protocolId and tags as text', async function () {
    const get = async (path: string) => (await request().get(`/v4/opportunities/aggregate/${path}`).expect(200)).body;
    expect(await get('max/chainId')).to.deep.equal({ max: '31337' });
    expect(await get('min/chainId')).to.deep.equal({ min: '31337' });
    expect(await get('max/protocolId')).to.deep.equal({ max: 'uniswap-v3' });
    expect(await get('min/protocolId'), 'no empty protocol').to.deep.equal({ min: 'uniswap-v3' });
    expect(await get('max/tags')).to.deep.equal({ max: 'featured' });
    expect(await get('min/tags')).to.deep.equal({ min: 'blue-chip' });
  });

  it('groups by protocol without a "" bucket for opportunities without a protocol (issue 31)', async function () {
    const protocols = (await request().get('/v4/opportunities/aggregate/protocolId').expect(200)).body;
    expect(protocols.map((b: { key: string }) => b.key)).to.deep.equal(['uniswap-v3']);
  });

  it('rejects unknown aggregate fields naming field', async function () {
    for (const path of ['aggregate/name', 'aggregate/max/name', 'aggregate/min/opportunity']) {
      const res = await request().get(`/v4/opportunities/${path}`).expect(400);
      expect(
        res.body.errors.map((e: { field: string }) => e.field),
        path,
      ).to.include('field');
    }
  });

  it('reads one opportunity by numeric and composite id; 404 when absent', async function () {
    const a = docs['A']!;
    expect((await request().get(`/v4/opportunities/${a.id}`).expect(200)).body).to.include({
      id: a.id,
      status: 'LIVE',
    });
    expect(
      (
        await request()
          .get(`/v4/opportunities/31337-ERC20-${syntheticIdentifier(1)}`)
          .expect(200)
      ).body.id,
    ).to.equal(a.id);
    expect(
      (
        await request()
          .get(`/v4/opportunities/31337-ERC20-${syntheticIdentifier(77)}`)
          .expect(404)
      ).body,
    ).to.include({ status: 404 });
    expect((await request().get('/v4/opportunities/123').expect(404)).headers['content-type']).to.match(
      /problem\+json/,
    );
    expect((await request().get('/v4/opportunities/not-an-id').expect(400)).body.errors[0].field).to.equal('id');
  });

  it('GET /{id}/campaigns returns the opportunity with its campaigns; 404 when absent', async function () {
    const res = await request()
      .get(`/v4/opportunities/31337-ERC20-${syntheticIdentifier(1)}/campaigns`)
      .expect(200);
    expect(res.body.id).to.equal(docs['A']!.id);
    // Every token type by default (the spec), POINT included; tokenTypes narrows.
    expect(res.body.campaigns.map((c: { id: string }) => c.id).sort()).to.deep.equal(['c1', 'c2']);
    const tokensOnly = await request()
      .get(`/v4/opportunities/31337-ERC20-${syntheticIdentifier(1)}/campaigns`)
      .query({ tokenTypes: 'TOKEN' })
      .expect(200);
    expect(tokensOnly.body.campaigns.map((c: { id: string }) => c.id)).to.deep.equal(['c1']);
    const points = await request()
      .get(`/v4/opportunities/31337-ERC20-${syntheticIdentifier(1)}/campaigns`)
      .query({ tokenTypes: 'POINT' })
      .expect(200);
    expect(points.body.campaigns.map((c: { id: string }) => c.id)).to.deep.equal(['c2']);
    await request().get('/v4/opportunities/999/campaigns').expect(404);
    await request().get('/v4/opportunities/999/storing-ids').expect(404);
  });

  describe('history records', function () {
    const at = (iso: string) => new Date(iso);
    before(async function () {
      await h.deps.pg.query(
        `INSERT INTO opportunity_snapshots (opportunity_id, ts, apr, tvl, native_apr, daily_rewards) SELECT $1, * FROM unnest($2::timestamptz[], $3::float8[], $4::float8[], $5::float8[], $6::float8[])`,
        [
          docs['A']!.id,
          [
            at('2026-01-01T00:10:00Z'),
            at('2026-01-01T00:40:00Z'),
            at('2026-01-01T01:10:00Z'),
            at('2026-01-02T05:00:00Z'),
          ],
          [10, 20, 30, 40],
          [100, 200, 300, 400],
          [1, 2, 3, 4],
          [5, 6, 7, 8],
        ],
      );
    });
    const url = (kind: string) => `/v4/opportunities/${docs['A']!.id}/${kind}-records`;
    const ts = (iso: string) => String(Date.parse(iso) / 1000);

    // Each snapshot's value holds until the next snapshot, counted within its own bucket (minutes):
    // 00:10 holds 30 (to 00:40), 00:40 holds 20 in its hour (to 01:00) and 30 in its day (to 01:10),
    // 01:10 holds 50 in its hour, 1,370 in its day (to midnight), 1,670 in the month (to 05:00 on the
    // 2nd), and the 2nd's 05:00 holds to the month's end (42,900) or the week's (4,020).
    it('weights APR per hour bucket by time, newest first, with timestamp and ISO date', async function () {
      const res = await request().get(url('apr')).query({ grain: 'hour' }).expect(200);
      expect(res.body).to.deep.equal([
        { timestamp: ts('2026-01-02T05:00:00Z'), date: '2026-01-02T05:00:00.000Z', apr: 40 },
        { timestamp: ts('2026-01-01T01:00:00Z'), date: '2026-01-01T01:00:00.000Z', apr: 30 },
        { timestamp: ts('2026-01-01T00:00:00Z'), date: '2026-01-01T00:00:00.000Z', apr: (10 * 30 + 20 * 20) / 50 },
      ]);
    });

    it('aggregates by day, week and month; pages; windows with from/to', async function () {
      const day = (await request().get(url('tvl')).query({ grain: 'day' }).expect(200)).body.map(
        (r: { tvl: number }) => r.tvl,
      );
      expect(day).to.have.length(2);
      expect(day[0]).to.equal(400);
      expect(day[1]).to.be.closeTo((100 * 30 + 200 * 30 + 300 * 1370) / 1430, 1e-9);
      const month = (await request().get(url('tvl')).query({ grain: 'month' }).expect(200)).body;
      expect(month).to.have.length(1);
      expect(month[0].tvl).to.be.closeTo((100 * 30 + 200 * 30 + 300 * 1670 + 400 * 42900) / 44630, 1e-9);
      const week = (await request().get(url('native-apr')).query({ grain: 'week' }).expect(200)).body;
      expect(week).to.have.length(1);
      expect(week[0].apr).to.be.closeTo((1 * 30 + 2 * 30 + 3 * 1670 + 4 * 4020) / 5750, 1e-9);
      expect(
        (await request().get(url('apr')).query({ grain: 'hour', items: 1, page: 1 }).expect(200)).body.map(
          (r: { apr: number }) => r.apr,
        ),
      ).to.deep.equal([30]);
      expect(
        (
          await request()
            .get(url('apr'))
            .query({ grain: 'hour', from: ts('2026-01-01T00:30:00Z'), to: ts('2026-01-01T02:00:00Z') })
            .expect(200)
        ).body.map((r: { apr: number }) => r.apr),
      ).to.deep.equal([30, 20]);
      expect((await request().get(url('apr')).query({ grain: 'year' }).expect(400)).body.errors[0].field).to.equal(
        'grain',
      );
      await request().get('/v4/opportunities/31337-ERC20-0x00/apr-records').expect(404);
    });

    it('serves the daily-rewards history (USD per day) in the same shape', async function () {
      const res = await request().get(url('daily-rewards')).query({ grain: 'day' }).expect(200);
      expect(res.body.map((r: { timestamp: string; date: string }) => [r.timestamp, r.date])).to.deep.equal([
        [ts('2026-01-02T00:00:00Z'), '2026-01-02T00:00:00.000Z'],
        [ts('2026-01-01T00:00:00Z'), '2026-01-01T00:00:00.000Z'],
      ]);
      expect(res.body[0].dailyRewards).to.equal(8);
      expect(res.body[1].dailyRewards).to.be.closeTo((5 * 30 + 6 * 30 + 7 * 1370) / 1430, 1e-9);
      const csv = await request().get(url('daily-rewards')).query({ grain: 'month', format: 'csv' }).expect(200);
      const [header, row, end] = csv.text.split('\n');
      expect([header, end]).to.deep.equal(['timestamp,date,dailyRewards', '']);
      const [timestamp, date, value] = row!.split(',');
      expect([timestamp, date]).to.deep.equal([ts('2026-01-01T00:00:00Z'), '2026-01-01T00:00:00.000Z']);
      expect(Number(value)).to.be.closeTo((5 * 30 + 6 * 30 + 7 * 1670 + 8 * 42900) / 44630, 1e-9);
    });

    it('format=csv|json wins over Accept, and every answer varies on Accept as well as encoding', async function () {
      const csv = await request()
        .get(url('apr'))
        .query({ grain: 'day', format: 'csv' })
        .set('Accept', 'application/json')
        .set('Accept-Encoding', 'gzip')
        .expect(200);
      expect(csv.headers['content-type']).to.match(/^text\/csv/);
      expect(csv.text.split('\n')[0]).to.equal('timestamp,date,apr');
      const json = await request().get(url('apr')).query({ grain: 'day', format: 'json' }).set('Accept', 'text/csv');
      expect(json.headers['content-type']).to.match(/^application\/json/);
      expect(json.body).to.have.length(2);
      for (const res of [csv, json]) {
        expect(res.headers['cache-control']).to.match(/^public/);
        const vary = String(res.headers['vary']).toLowerCase();
        expect(vary).to.include('accept-encoding');
        expect(vary.split(/,\s*/)).to.include('accept');
      }
      const bad = await request().get(url('apr')).query({ format: 'xml' }).expect(400);
      expect(bad.body.errors[0].field).to.equal('format');
    });

    it('every route that chooses its answer by Accept varies on Accept (found from the source and the OpenAPI document)', async function () {
      // Modules reading the Accept header; a new one must be added here, and its cacheable answers vary on Accept.
      const readers = readdirSync('api', { recursive: true, encoding: 'utf8' })
        .filter((f) => /\.tsx?$/.test(f))
        .filter((f) =>
          /ctx\.accepts\(|\.get\('accept'\)|\['accept'\]|headers\.accept\b/.test(readFileSync(join('api', f), 'utf8')),
        )
        .sort();
      expect(readers, 'modules that negotiate by Accept').to.deep.equal([
        'graphql/router.ts', // GET /graphql/v1: GraphiQL, graphql-response+json or json
        'graphql/transport.ts', // the media type of a 400 error body only (not cacheable)
        'problems/router.ts', // GET /problems[/{slug}]: the problem pages, HTML or JSON
        'recordsFormat.ts', // the history records and price candles: CSV or JSON
        'routes/events/handlers.ts', // GET /v4/events: JSON pages or Server-Sent Events
      ]);
      const doc = (await request().get('/v4/openapi.json').expect(200)).body as {
        paths: Record<string, { get?: { responses: Record<string, { content?: Record<string, unknown> }> } }>;
      };
      const negotiated = Object.entries(doc.paths)
        .filter(([, ops]) => Object.keys(ops.get?.responses['200']?.content ?? {}).length > 1)
        .map(([path]) => path);
      expect(negotiated).to.have.members([
        ...['apr', 'tvl', 'native-apr', 'daily-rewards'].map((k) => `/v4/opportunities/{id}/${k}-records`),
        '/v4/events',
        // A token's price candles (#33), through recordsFormat of the history records.
        '/v4/prices/history',
        '/v4/tokens/prices/history',
      ]);
      const token = `chainId=1&address=0x${'ab'.repeat(20)}`;
      const urls = [
        ...negotiated.map((p) =>
          p.replace('{id}', docs['A']!.id).replace(/prices\/history$/, `prices/history?${token}`),
        ),
        `/graphql/v1?query=${encodeURIComponent('{ opportunities { id } }')}`,
        '/problems',
        '/problems/not-found',
      ];
      for (const path of urls)
        for (const accept of ['text/csv', 'application/json', 'text/html']) {
          const res = await request().get(path).set('Accept', accept).set('Accept-Encoding', 'gzip');
          const vary = String(res.headers['vary']).toLowerCase().split(/,\s*/);
          expect(vary, `${path} (Accept: ${accept}) → ${res.status}`).to.include.members(['accept', 'accept-encoding']);
        }
    });

    it('answers CSV with a header row when Accept is text/csv', async function () {
      const res = await request().get(url('tvl')).query({ grain: 'day' }).set('Accept', 'text/csv').expect(200);
      expect(res.headers['content-type']).to.match(/^text\/csv/);
      const lines = res.text.split('\n');
      expect(lines.slice(0, 2)).to.deep.equal([
        'timestamp,date,tvl',
        `${ts('2026-01-02T00:00:00Z')},2026-01-02T00:00:00.000Z,400`,
      ]);
      expect(lines[2]).to.match(new RegExp(`^${ts('2026-01-01T00:00:00Z')},2026-01-01T00:00:00.000Z,293\\.70`));
      expect(lines.slice(3)).to.deep.equal(['']);
    });
  });
});
