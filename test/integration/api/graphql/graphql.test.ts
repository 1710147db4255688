import { expect } from 'chai';
import { createReferenceDemo, type ReferenceDemo } from '../referenceDemo.js';

type GqlResponse = {
  status: number;
  data?: Record<string, unknown> | null;
  errors?: { message: string; extensions?: Record<string, unknown> }[];
};

describe('/graphql/v1 on the seeded demo', function () {
  let demo: ReferenceDemo;
  let esRequests = 0;

  const gql = async (query: string, variables?: Record<string, unknown>): Promise<GqlResponse> => {
    const res = await demo.h
      .request()
      .post('/graphql/v1')
      .set('accept', 'application/graphql-response+json')
      .send({ query, variables });
    return { status: res.status, ...(JSON.parse(res.text) as object) };
  };
  const rest = async (path: string, query: Record<string, unknown> = {}) =>
    (await demo.h.request().get(path).query(query).expect(200)).body;

  before(async function () {
    this.timeout(600_000);
    demo = await createReferenceDemo();
    demo.h.deps.es.diagnostic.on('request', () => void esRequests++);
  });
  after(async () => demo?.close());

  it('lists opportunities with the REST filters, sort and paging (same records as GET /v4/opportunities)', async function () {
    const filter = { chainId: '31337', status: 'LIVE,SOON', sort: 'tvl', order: 'desc' };
    const res = await gql(
      `query ($f: OpportunityFilter) { opportunities(filter: $f, page: 1, items: 3) { id name tvl status } }`,
      { f: filter },
    );
    expect(res.errors).to.equal(undefined);
    const expected = (await rest('/v4/opportunities', { ...filter, page: 1, items: 3 })) as {
      id: string;
      name: string;
      tvl: number;
      status: string;
    }[];
    expect(expected).to.have.length(3);
    expect(res.data!['opportunities']).to.deep.equal(
      expected.map(({ id, name, tvl, status }) => ({ id, name, tvl, status })),
    );
  });

  it('lists campaigns with the REST filters (same ids as GET /v4/campaigns)', async function () {
    const res = await gql(
      `{ campaigns(filter: { status: "LIVE", tokenTypes: ["TOKEN,POINT"] }, items: 50) { id campaignId rewardToken { symbol type } } }`,
    );
    const expected = (await rest('/v4/campaigns', { status: 'LIVE', tokenTypes: 'TOKEN,POINT', items: 50 })) as {
      id: string;
      campaignId: string;
      rewardToken: { symbol: string; type: string };
    }[];
    expect(expected.length).to.be.greaterThan(3);
    expect(res.data!['campaigns']).to.deep.equal(
      expected.map((c) => ({
        id: c.id,
        campaignId: c.campaignId,
        rewardToken: { symbol: c.rewardToken.symbol, type: c.rewardToken.type },
      })),
    );
  });

  it('reads one opportunity and one campaign by id, null when unknown', async function () {
    const [campaign] = (await rest('/v4/campaigns', { items: 1 })) as {
      id: string;
      opportunityId: string;
      amount: string;
    }[];
    const res = await gql(
      `query ($o: ID!, $c: ID!) { opportunity(id: $o) { id identifier } campaign(id: $c) { id amount opportunity { id } } missing: campaign(id: "123") { id } }`,
      { o: campaign!.opportunityId, c: campaign!.id },
    );
    const opportunity = await rest(`/v4/opportunities/${campaign!.opportunityId}`);
    expect(res.data).to.deep.equal({
      opportunity: { id: opportunity.id, identifier: opportunity.identifier },
      campaign: { id: campaign!.id, amount: campaign!.amount, opportunity: { id: campaign!.opportunityId } },
      missing: null,
    });
  });

  it('resolves opportunity → campaigns → reward token and campaign → opportunity in a bounded number of queries (batched)', async function () {
    const nested = `query ($n: Int) { opportunities(items: $n) { id campaigns { id rewardToken { symbol } opportunity { id } } } }`;
    const count = async (n: number) => {
      const before = esRequests;
      const res = await gql(nested, { n });
      expect(res.errors).to.equal(undefined);
      return { res, requests: esRequests - before };
    };
    const small = await count(2);
    const large = await count(16);
    const opportunities = large.res.data!['opportunities'] as {
      id: string;
      campaigns: { id: string; rewardToken: { symbol: string }; opportunity: { id: string } }[];
    }[];
    expect(opportunities).to.have.length(16);
    // Per level one query: opportunities, their campaigns, the campaigns' opportunities (+ chains read from PostgreSQL).
    expect(large.requests).to.equal(small.requests);
    expect(large.requests).to.be.at.most(4);
    const first = opportunities[0]!;
    const restCampaigns = (await rest(`/v4/opportunities/${first.id}/campaigns`, { test: true, point: true }))
      .campaigns as { id: string; rewardToken: { symbol: string } }[];
    expect(first.campaigns.map((c) => c.id).sort()).to.deep.equal(restCampaigns.map((c) => c.id).sort());
    expect(first.campaigns.every((c) => c.opportunity.id === first.id)).to.equal(true);
  });

  it('resolves rewards and user → rewards → campaign like the REST routes', async function () {
    const { rows } = await demo.h.deps.pg.query<{ campaign_id: string }>(
      'SELECT campaign_id FROM reward_breakdowns ORDER BY amount DESC LIMIT 1',
    );
    const campaignId = rows[0]!.campaign_id;
    const expected = (await rest('/v4/rewards', { chainId: 31337, campaignId })) as {
      recipient: string;
      amount: string;
    }[];
    expect(expected.length).to.be.greaterThan(0);
    const res = await gql(
      `query ($c: String!) { rewards(chainId: 31337, campaignId: $c) { recipient amount campaign { campaignId } } }`,
      { c: campaignId },
    );
    expect(res.data!['rewards']).to.deep.equal(
      expected.map((r) => ({ recipient: r.recipient, amount: r.amount, campaign: { campaignId } })),
    );
    const user = expected[0]!.recipient;
    const userRes = await gql(
      `query ($a: String!) { user(address: $a) { address rewards(chainId: [31337]) { chain { id } rewards { amount breakdowns { campaignId campaign { campaignId } } } } } }`,
      { a: user },
    );
    const restUser = (await rest(`/v4/users/${user}/rewards`, { chainId: 31337, breakdownPage: 0 })) as {
      rewards: { amount: string; breakdowns: { campaignId: string }[] }[];
    }[];
    const chainRewards = (
      userRes.data!['user'] as {
        rewards: {
          chain: { id: number };
          rewards: { amount: string; breakdowns: { campaignId: string; campaign: { campaignId: string } | null }[] }[];
        }[];
      }
    ).rewards;
    expect(chainRewards[0]!.chain.id).to.equal(31337);
    expect(chainRewards[0]!.rewards.map((r) => r.amount)).to.deep.equal(restUser[0]!.rewards.map((r) => r.amount));
    const breakdown = chainRewards[0]!.rewards[0]!.breakdowns[0]!;
    expect(breakdown.campaign?.campaignId.toLowerCase()).to.equal(breakdown.campaignId.toLowerCase());
  });

  it('answers GET queries too', async function () {
    const res = await demo.h
      .request()
      .get('/graphql/v1')
      .query({ query: '{ opportunities(items: 1) { id } }' })
      .set('accept', 'application/json')
      .expect(200);
    expect(res.body.data.opportunities).to.have.length(1);
  });

  it('reports bad arguments as BAD_USER_INPUT naming the field, like the REST 400', async function () {
    const res = await gql(`{ opportunities(items: 1000) { id } }`);
    expect(res.data).to.equal(null);
    expect(res.errors!.map((e) => e.extensions?.['code'])).to.deep.equal(['BAD_USER_INPUT']);
    expect(res.errors![0]!.extensions!['errors']).to.deep.equal([{ field: 'items', message: 'must be <= 100' }]);
    const filter = await gql(`{ campaigns(filter: { campaignId: "nope" }) { id } }`);
    expect(
      filter.errors!.map((e) => [e.extensions?.['code'], (e.extensions?.['errors'] as { field: string }[])[0]!.field]),
    ).to.deep.equal([['BAD_USER_INPUT', 'campaignId']]);
  });

  it('gives parse and validation errors their codes, with a 400', async function () {
    const parse = await gql('{ opportunities(');
    expect(parse.status).to.equal(400);
    expect(parse.errors![0]!.extensions!['code']).to.equal('GRAPHQL_PARSE_FAILED');
    const unknown = await gql('{ opportunities { nope } }');
    expect(unknown.status).to.equal(400);
    expect(unknown.errors![0]!.extensions!['code']).to.equal('GRAPHQL_VALIDATION_FAILED');
    expect(unknown.errors![0]!.message).to.match(/nope/);
  });

  it('refuses queries past the depth or cost limits before running them', async function () {
    const before = esRequests;
    const deep = await gql(
      '{ campaigns(items: 1) { opportunity { campaigns { opportunity { campaigns { opportunity { campaigns { opportunity { id } } } } } } } } }',
    );
    expect(deep.status).to.equal(400);
    // Nested campaigns are costed at their real maximum (100 per opportunity, issue 16): too costly as well.
    expect(deep.errors!.map((e) => e.extensions!['code'])).to.have.members(['QUERY_TOO_DEEP', 'QUERY_TOO_COSTLY']);
    const costly = await gql(
      '{ opportunities(items: 100) { campaigns { opportunity { campaigns { id name: id } } } } }',
    );
    expect(costly.status).to.equal(400);
    expect(costly.errors!.map((e) => e.extensions!['code'])).to.deep.equal(['QUERY_TOO_COSTLY']);
    expect(esRequests).to.equal(before);
  });
});
