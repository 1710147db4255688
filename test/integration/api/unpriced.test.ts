import { expect } from 'chai';
import supertest from 'supertest';
import { DEVNET_PRETGE_TOKEN } from '../../../internal/devnetChains.js';
import { createReferenceDemo, type ReferenceDemo } from './referenceDemo.js';

type Campaign = {
  id: string;
  apr: number;
  dailyRewards: number;
  startTimestamp: string;
  endTimestamp: string;
  rewardToken: { id: string; chainId: number; address: string; price: number | null };
  opportunityId: string;
  unpricedRewardTokens?: string[];
};
type Opportunity = { id: string; apr: number; dailyRewards: number; unpricedRewardTokens?: string[] };
type Health = {
  status: string;
  dependenciesOk: boolean;
  prices: {
    unpricedLiveCampaigns: {
      campaigns: number;
      tokens: { id: string; chainId: number; address: string; symbol: string; campaigns: number }[];
    };
  };
};

/**
 * The demo's pre-TGE reward token has no price: its LIVE campaigns' figures leave it out, and every
 * read says so (unpricedRewardTokens), /v4/health is degraded naming it, matching the metrics job's
 * missingPrices; once priced, all of it clears.
 */
describe('unpriced reward tokens: unpricedRewardTokens, /v4/health and the metrics job agree (#31)', function () {
  let demo: ReferenceDemo;
  let request: () => ReturnType<typeof supertest>;
  const pretge = DEVNET_PRETGE_TOKEN.toLowerCase();

  before(async function () {
    demo = await createReferenceDemo();
    const { h } = demo;
    request = () => supertest(h.createApp().callback());
  });
  after(async () => demo?.close());

  const lastMissingPrices = async () =>
    (
      await demo.h.deps.pg.query<{ n: number }>(
        `SELECT (counts->>'missingPrices')::int AS n FROM job_runs WHERE job = 'metrics' AND status = 'success' ORDER BY id DESC LIMIT 1`,
      )
    ).rows[0]!.n;
  const campaigns = async () =>
    (await request().get('/v4/campaigns').query({ items: 100 }).expect(200)).body as Campaign[];
  const live = (c: Campaign) =>
    Number(c.startTimestamp) <= Date.now() / 1000 && Date.now() / 1000 < Number(c.endTimestamp);

  it('names the unpriced token on every LIVE pre-TGE campaign and its opportunity, in REST and GraphQL', async function () {
    const all = await campaigns();
    const unpriced = all.filter((c) => c.rewardToken.address.toLowerCase() === pretge && live(c));
    expect(unpriced.length, 'LIVE pre-TGE campaigns in the demo').to.be.greaterThan(0);
    for (const c of all) {
      if (unpriced.includes(c)) {
        expect(c.unpricedRewardTokens, c.id).to.deep.equal([c.rewardToken.id]);
        expect(c.dailyRewards, 'stays a number').to.equal(0);
      } else expect(c, `${c.id} is priced or not distributing`).to.not.have.property('unpricedRewardTokens');
    }
    const opportunity = (await request().get(`/v4/opportunities/${unpriced[0]!.opportunityId}`).expect(200))
      .body as Opportunity;
    expect(opportunity.unpricedRewardTokens).to.deep.equal([unpriced[0]!.rewardToken.id]);
    expect(opportunity.apr).to.be.a('number');

    const listed = (await request().get('/v4/opportunities').query({ items: 100 }).expect(200)).body as Opportunity[];
    expect(listed.filter((o) => o.unpricedRewardTokens?.length).length).to.be.greaterThan(0);

    const gql = await request()
      .post('/graphql/v1')
      .send({
        query: `{ campaign(id: "${unpriced[0]!.id}") { unpricedRewardTokens } opportunities(items: 100) { id unpricedRewardTokens } }`,
      })
      .expect(200);
    expect(gql.body.errors).to.equal(undefined);
    expect(gql.body.data.campaign.unpricedRewardTokens).to.deep.equal([unpriced[0]!.rewardToken.id]);
    const gqlOpp = gql.body.data.opportunities.find((o: { id: string }) => o.id === opportunity.id);
    expect(gqlOpp.unpricedRewardTokens).to.deep.equal([unpriced[0]!.rewardToken.id]);
  });

  it('/v4/health is degraded (200: no dependency is down), naming the token and as many campaigns as missingPrices', async function () {
    const all = await campaigns();
    const liveUnpriced = all.filter((c) => c.unpricedRewardTokens?.length);
    const res = await request().get('/v4/health').expect(200);
    const health = res.body as Health;
    expect(health.status).to.equal('degraded');
    expect(health.dependenciesOk).to.equal(true);
    const missing = await lastMissingPrices();
    expect(missing).to.be.greaterThan(0);
    expect(health.prices.unpricedLiveCampaigns.campaigns).to.equal(missing);
    expect(health.prices.unpricedLiveCampaigns.campaigns).to.equal(liveUnpriced.length);
    const token = liveUnpriced[0]!.rewardToken;
    const served = health.prices.unpricedLiveCampaigns.tokens;
    expect(served).to.have.length(1);
    // Named by chain and address too (#44: two tokens of one symbol on two chains were told apart by nothing).
    expect({ ...served[0], address: served[0]!.address.toLowerCase() }).to.deep.equal({
      id: token.id,
      chainId: token.chainId,
      address: token.address.toLowerCase(),
      symbol: 'preTGE',
      campaigns: missing,
    });
  });

  it('/v4/health counts public campaigns only: a private unpriced campaign is not told to anyone', async function () {
    const before = ((await request().get('/v4/health').expect(200)).body as Health).prices.unpricedLiveCampaigns;
    const hidden = (await campaigns()).find((c) => c.unpricedRewardTokens?.length)!;
    await demo.h.deps.pg.query(
      "INSERT INTO campaign_privacy (campaign_db_id, is_private, updated_by) VALUES ($1, true, 'test') ON CONFLICT (campaign_db_id) DO UPDATE SET is_private = true",
      [hidden.id],
    );
    try {
      const after = ((await request().get('/v4/health').expect(200)).body as Health).prices.unpricedLiveCampaigns;
      expect(after.campaigns).to.equal(before.campaigns - 1);
    } finally {
      await demo.h.deps.pg.query('DELETE FROM campaign_privacy WHERE campaign_db_id = $1', [hidden.id]);
    }
  });

  it('clears everywhere once the token has a price', async function () {
    const { h, api } = demo;
    api.prices.set(`chain-31337:${pretge}`, 0.5);
    for (const job of ['prices', 'metrics', 'publish']) expect((await h.runJob(job)).status, job).to.equal('success');
    await h.refresh();
    expect(await lastMissingPrices()).to.equal(0);
    const all = await campaigns();
    expect(all.filter((c) => c.unpricedRewardTokens)).to.deep.equal([]);
    const pricedLive = all.filter((c) => c.rewardToken.address.toLowerCase() === pretge && live(c));
    expect(pricedLive.every((c) => c.dailyRewards > 0)).to.equal(true);
    const listed = (await request().get('/v4/opportunities').query({ items: 100 }).expect(200)).body as Opportunity[];
    expect(listed.filter((o) => o.unpricedRewardTokens)).to.deep.equal([]);
    const health = (await request().get('/v4/health').expect(200)).body as Health;
    expect(health.prices.unpricedLiveCampaigns).to.deep.equal({ campaigns: 0, tokens: [] });
    expect(health.status).to.equal('ok');
  });
});
