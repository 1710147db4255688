import { expect } from 'chai';
import { TEST_BACK_OFFICE_TOKEN } from '../../../helpers/testConfig.js';
import { createReferenceDemo, priceRewardTokensBeforeFirstRoot, type ReferenceDemo } from '../referenceDemo.js';

const CHAIN = 31337;
type Bucket = { month: string | null; key: string | null; value: number };
type Figure = number | Record<string, number | Record<string, number>>;
type GqlBody = { data?: Record<string, any> | null; errors?: { extensions?: Record<string, unknown> }[] };

/**
 * Pure: GraphQL buckets folded back into the REST body they stand for (a number, `{ key: n }`,
 * `{ month: n }` or `{ month: { key: n } }`), so each answer is compared with the REST one whole.
 */
function asRestBody(buckets: Bucket[], grouped: boolean, grain: boolean): Figure {
  if (!grouped && !grain) {
    expect(buckets, 'one bucket for a total').to.have.length(1);
    return buckets[0]!.value;
  }
  const out: Record<string, number | Record<string, number>> = {};
  for (const b of buckets) {
    if (grouped && grain) ((out[b.month!] ??= {}) as Record<string, number>)[b.key!] = b.value;
    else out[(grain ? b.month : b.key)!] = b.value;
  }
  return out;
}

/** Deep equality with USD sums compared up to float rounding (the same rows may be summed in another order). */
function expectNear(actual: Figure, expected: Figure, what: string): void {
  if (typeof expected === 'number') {
    expect(actual, what).to.be.a('number');
    expect(actual as number, what).to.be.closeTo(expected, 1e-9 * Math.max(1, Math.abs(expected)));
    return;
  }
  expect(Object.keys(actual as object).sort(), what).to.deep.equal(Object.keys(expected).sort());
  for (const [k, v] of Object.entries(expected))
    expectNear((actual as Record<string, Figure>)[k]!, v as Figure, `${what} ${k}`);
}

/**
 * The #33 counts, totals and prices through GraphQL (api/graphql/totals.ts, prices.ts) on the
 * seeded demo: each answer equals the REST route's for the same filters, as the same functions
 * compute both.
 */
describe('/graphql/v1 counts, totals and prices (issue 33) equal their REST routes', function () {
  let demo: ReferenceDemo;
  const backOffice = { authorization: TEST_BACK_OFFICE_TOKEN };

  const gql = async (query: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = {}) => {
    const res = await demo.h
      .request()
      .post('/graphql/v1')
      .set('accept', 'application/json')
      .set(headers)
      .send({ query, variables });
    return res.body as GqlBody;
  };
  const rest = async (path: string, query: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
    (await demo.h.request().get(path).query(query).set(headers).expect(200)).body;

  before(async function () {
    this.timeout(600_000);
    demo = await createReferenceDemo();
    // A daily close for each reward token before the first root, so the distributed rewards have USD figures.
    await priceRewardTokensBeforeFirstRoot(demo.h, CHAIN);
  });
  after(async () => demo?.close());

  /** The figure of `field` for `filter`, `by` and `grain`, as the REST body; with the value field named `value`. */
  const figureOf = async (field: string, value: string, filter: object, by?: string, grain?: string) => {
    const res = await gql(
      `query ($f: ${field === 'campaignCounts' ? 'CampaignFilter' : 'DistributedFilter'}, $by: TotalsGroup, $g: String) {
         ${field}(filter: $f, by: $by, grain: $g) { month key ${value} } }`,
      { f: filter, by: by?.toUpperCase(), g: grain },
      backOffice,
    );
    expect(res.errors, JSON.stringify(res.errors)).to.equal(undefined);
    const buckets = (res.data![field] as Record<string, unknown>[]).map((b) => ({
      month: b['month'] as string | null,
      key: b['key'] as string | null,
      value: b[value] as number,
    }));
    return asRestBody(buckets, Boolean(by), Boolean(grain));
  };

  const GROUPS = [undefined, 'chains', 'types', 'protocols'] as const;

  it('counts campaigns as GET /v4/campaigns/count[/by-…] for the same filters, per month with grain', async function () {
    const filters: Record<string, unknown>[] = [
      {},
      { test: true, showPrivate: true },
      { chainId: CHAIN, status: 'LIVE,PAST' },
      { search: 'usdc', test: true },
      { types: 'ERC20,CLAMM' },
    ];
    let counted = 0;
    for (const filter of filters)
      for (const group of GROUPS)
        for (const grain of [undefined, 'month']) {
          const path = `/v4/campaigns/count${group ? `/by-${group}` : ''}`;
          const expected = await rest(path, { ...filter, ...(grain ? { grain } : {}) }, backOffice);
          const actual = await figureOf('campaignCounts', 'count', filter, group, grain);
          expect(actual, `${path} ${JSON.stringify(filter)} ${grain ?? ''}`).to.deep.equal(expected);
          if (typeof expected === 'number') counted += expected;
        }
    expect(counted, 'some filter counts campaigns').to.be.greaterThan(0);
  });

  it('sums distributed rewards as GET /v4/rewards/total/distributed[/by-…] for the same window and filters', async function () {
    const [campaign] = (await rest('/v4/campaigns', { items: 1, status: 'LIVE' })) as { campaignId: string }[];
    const filters: Record<string, unknown>[] = [
      {},
      { test: true, showPrivate: true },
      { from: '2000-01-01', to: '2999-01-01' },
      { from: '2999-01-01' },
      // Filters PostgreSQL does not apply itself: the Elasticsearch path.
      { types: 'ERC20,CLAMM', test: true },
      { campaignId: campaign!.campaignId },
    ];
    let usd = 0;
    for (const filter of filters)
      for (const group of GROUPS)
        for (const grain of [undefined, 'month']) {
          const path = `/v4/rewards/total/distributed${group ? `/by-${group}` : ''}`;
          const expected = await rest(path, { ...filter, ...(grain ? { grain } : {}) }, backOffice);
          const actual = await figureOf('distributedRewards', 'usd', filter, group, grain);
          // REST answers a bare 0 for a monthly series without a month; GraphQL no bucket.
          if (grain && expected === 0) expect(actual, `${path} ${JSON.stringify(filter)}`).to.deep.equal({});
          else expectNear(actual, expected, `${path} ${JSON.stringify(filter)} ${grain ?? ''}`);
          if (typeof expected === 'number') usd += expected;
        }
    expect(usd, 'some filter distributed USD').to.be.greaterThan(0);
  });

  it('answers a campaign’s and a token’s live total, recipients and unclaimed amount as GET /v4/rewards/total, /count, /unclaim', async function () {
    const { rows } = await demo.h.deps.pg.query<{ campaign_id: string; token: string }>(
      `SELECT DISTINCT lower(campaign_id) AS campaign_id, lower(token) AS token FROM reward_breakdowns WHERE chain_id = $1 ORDER BY 1 LIMIT 3`,
      [CHAIN],
    );
    expect(rows.length).to.be.greaterThan(1);
    const query = `query ($c: String, $t: String, $ids: [String!]) {
      rewardsTotal(chainId: ${CHAIN}, campaignId: $c, token: $t) { chainId campaignId token rewardTokenId root amount }
      rewardsCount(chainId: ${CHAIN}, campaignId: $c, token: $t) { chainId campaignId token rewardTokenId root count }
      rewardsUnclaimed(chainId: ${CHAIN}, campaignIds: $ids, token: $t) { campaignId token amount } }`;
    // GraphQL names every field of its type; REST leaves out those that do not apply.
    const withNulls = (body: Record<string, unknown>, keys: string[]) =>
      Object.fromEntries(keys.map((k) => [k, body[k] ?? null]));
    const TOTAL = ['chainId', 'campaignId', 'token', 'rewardTokenId', 'root', 'amount'];
    const COUNT = ['chainId', 'campaignId', 'token', 'rewardTokenId', 'root', 'count'];
    for (const { campaign_id: c, token: t } of rows) {
      for (const [vars, q] of [
        [{ c, ids: [c] }, { campaignId: c }],
        [{ t }, { token: t }],
      ] as const) {
        const res = await gql(query, vars);
        expect(res.errors, JSON.stringify(res.errors)).to.equal(undefined);
        const total = await rest('/v4/rewards/total', { chainId: CHAIN, ...q });
        const count = await rest('/v4/rewards/count', { chainId: CHAIN, ...q });
        const unclaimed = await rest('/v4/rewards/unclaim', {
          chainId: CHAIN,
          ...('campaignId' in q ? { campaignIds: c } : q),
        });
        expect(res.data!['rewardsTotal']).to.deep.equal(withNulls(total, TOTAL));
        expect(res.data!['rewardsCount']).to.deep.equal(withNulls(count, COUNT));
        expect(res.data!['rewardsUnclaimed']).to.deep.equal(
          Object.entries(unclaimed).map(([id, amount]) =>
            'token' in q ? { campaignId: null, token: id, amount } : { campaignId: id, token: null, amount },
          ),
        );
      }
    }
    // A campaign REST answers 404 for is null here; a request naming both forms is a 400 naming the field.
    const unknown = `0x${'ab'.repeat(32)}`;
    await demo.h.request().get('/v4/rewards/total').query({ chainId: CHAIN, campaignId: unknown }).expect(404);
    const absent = await gql(query, { c: unknown, ids: [unknown] });
    expect(absent.data).to.deep.equal({ rewardsTotal: null, rewardsCount: null, rewardsUnclaimed: [] });
    const both = await gql(
      `{ rewardsTotal(chainId: ${CHAIN}, campaignId: "${unknown}", token: "${rows[0]!.token}") { amount } }`,
    );
    expect(
      both.errors!.map((e) => [e.extensions!['code'], (e.extensions!['errors'] as { field: string }[])[0]!.field]),
    ).to.deep.equal([['BAD_USER_INPUT', 'token']]);
  });

  it('names the field of a bad window, grain or filter as REST does (BAD_USER_INPUT)', async function () {
    const fieldsOf = (body: GqlBody) =>
      (body.errors ?? []).map((e) => [
        e.extensions!['code'],
        ((e.extensions!['errors'] ?? []) as { field: string }[]).map((f) => f.field),
      ]);
    expect(fieldsOf(await gql('{ distributedRewards(filter: { from: "nope" }) { usd } }'))).to.deep.equal([
      ['BAD_USER_INPUT', ['from']],
    ]);
    expect(fieldsOf(await gql('{ campaignCounts(grain: "year") { count } }'))[0]![1]).to.include('grain');
    expect(fieldsOf(await gql('{ campaignCounts(filter: { campaignId: "nope" }) { count } }'))[0]![1]).to.include(
      'campaignId',
    );
    expect(fieldsOf(await gql(`{ rewardsUnclaimed(chainId: ${CHAIN}) { amount } }`))).to.deep.equal([
      ['BAD_USER_INPUT', ['campaignIds']],
    ]);
  });

  it('lists prices and a price history as GET /v4/prices and /v4/prices/history, null for an unknown token', async function () {
    const PRICE = 'tokenId chainId address symbol price updatedAt source stale';
    const CANDLE = 'day timestamp date open close min max source';
    let listed = 0;
    for (const [filter, page] of [
      [{}, { items: 100 }],
      [{ chainId: CHAIN, symbol: 'rwd' }, {}],
      [{ test: true }, { items: 2, page: 1 }],
    ] as const) {
      const res = await gql(
        `query ($f: PriceFilter, $page: Int, $items: Int) { prices(filter: $f, page: $page, items: $items) { ${PRICE} } }`,
        { f: filter, ...page },
      );
      expect(res.errors, JSON.stringify(res.errors)).to.equal(undefined);
      const expected = await rest('/v4/prices', { ...filter, ...page });
      expect(res.data!['prices'], JSON.stringify(filter)).to.deep.equal(expected);
      listed += expected.length;
    }
    expect(listed, 'prices listed').to.be.greaterThan(0);
    const { rows } = await demo.h.deps.pg.query<{ address: string }>(`SELECT address FROM tokens WHERE symbol = 'RWD'`);
    const q = { chainId: CHAIN, address: rows[0]!.address };
    const history = (vars: Record<string, unknown>) =>
      gql(
        `query ($c: Int, $a: String, $s: String, $g: String) { priceHistory(chainId: $c, address: $a, symbol: $s, grain: $g) { ${CANDLE} } }`,
        vars,
      );
    let candles = 0;
    for (const grain of ['day', 'week', 'month', 'hour']) {
      const expected = await rest('/v4/prices/history', { ...q, grain });
      const res = await history({ c: q.chainId, a: q.address, g: grain });
      expect(res.data!['priceHistory'], grain).to.deep.equal(expected);
      candles += expected.length;
    }
    expect(candles, 'candles served').to.be.greaterThan(0);
    expect((await history({ s: 'NOPE' })).data).to.deep.equal({ priceHistory: null });
    const bad = await history({ c: q.chainId, a: q.address, g: 'year' });
    expect(bad.errors!.map((e) => e.extensions!['code'])).to.deep.equal(['BAD_USER_INPUT']);
  });
});
