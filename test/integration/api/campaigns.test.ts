import { expect } from 'chai';
import type { Hex } from 'viem';
import {
  computeCampaignId,
  createCampaigns,
  encodeClammCampaignData,
  encodeErc20CampaignData,
  getLatestTimestamp,
} from '../../../contracts/actions.js';
import { campaignDbId } from '../../../domain/ids.js';
import { createHarness, type Harness } from '../../helpers/harness.js';

const DAY = 86_400;

/** Net amount emitted by the DistributionCreator stand-in: 3% creation fee in base 1e9. */
const net = (gross: bigint) => (gross * (1_000_000_000n - 30_000_000n)) / 1_000_000_000n;

type Expected = {
  chainId: number;
  campaignId: Hex;
  amount: bigint;
  type: string;
  symbol: string;
  decimals: number;
  start: number;
  end: number;
  status: 'LIVE' | 'PAST' | 'SOON';
  mainParameter: string;
};

describe('GET /v4/campaigns on indexed devnet campaigns (vertical slice)', function () {
  let h: Harness;
  const expected: Expected[] = [];

  before(async function () {
    // A block explorer per chain (test devnets have none of their own): /v4/chains serves it with its chain id.
    h = await createHarness({
      chainOverrides: (c) => ({ explorers: [{ type: 'BLOCKSCOUT', url: `https://explorer-${c.id}.invalid` }] }),
    });
    const [a, b] = h.chains as [Harness['chains'][0], Harness['chains'][0]];
    const now = await getLatestTimestamp({ rpcUrl: a.devnet.rpcUrl });
    const [rwdA, usdA] = a.stack.tokens.rewards;
    const [targetA] = a.stack.tokens.targets;
    const specsA = [
      { rewardToken: rwdA!, amount: 1000n * 10n ** 18n, start: now - 3600, duration: 7 * DAY, status: 'LIVE' as const },
      {
        rewardToken: usdA!,
        amount: 5_000n * 10n ** 6n,
        start: now - 10 * DAY,
        duration: 2 * DAY,
        status: 'PAST' as const,
      },
      {
        rewardToken: rwdA!,
        amount: 42n * 10n ** 18n + 7n,
        start: now + 5 * DAY,
        duration: 3 * DAY,
        status: 'SOON' as const,
      },
    ];
    const dataA = encodeErc20CampaignData({ targetToken: targetA!.address });
    const txA = await createCampaigns({
      rpcUrl: a.devnet.rpcUrl,
      chainId: a.devnet.chainId,
      stack: a.stack,
      campaigns: specsA.map((s) => ({
        rewardToken: s.rewardToken.address,
        amount: s.amount,
        campaignType: 1,
        startTimestamp: s.start,
        duration: s.duration,
        campaignData: dataA,
      })),
    });
    specsA.forEach((s, i) =>
      expected.push({
        chainId: a.devnet.chainId,
        campaignId: txA.campaignIds[i]!,
        amount: net(s.amount),
        type: 'ERC20',
        symbol: s.rewardToken.symbol,
        decimals: s.rewardToken.decimals,
        start: s.start,
        end: s.start + s.duration,
        status: s.status,
        mainParameter: targetA!.address.toLowerCase(),
      }),
    );

    const nowB = await getLatestTimestamp({ rpcUrl: b.devnet.rpcUrl });
    const [, usdB, ptsB] = b.stack.tokens.rewards;
    const pool = b.stack.tokens.targets[1]!.address;
    const clamm = encodeClammCampaignData({
      pool,
      weightFees: 2000,
      weightToken0: 4000,
      weightToken1: 4000,
      isOutOfRangeIncentivized: false,
    });
    const erc20 = encodeErc20CampaignData({ targetToken: b.stack.tokens.targets[0]!.address });
    const specsB = [
      {
        rewardToken: usdB!,
        amount: 900n * 10n ** 6n,
        type: 1,
        typeName: 'ERC20',
        data: erc20,
        main: b.stack.tokens.targets[0]!.address,
      },
      { rewardToken: ptsB!, amount: 10n ** 21n, type: 2, typeName: 'CLAMM', data: clamm, main: pool },
    ];
    const txB = await createCampaigns({
      rpcUrl: b.devnet.rpcUrl,
      chainId: b.devnet.chainId,
      stack: b.stack,
      campaigns: specsB.map((s) => ({
        rewardToken: s.rewardToken.address,
        amount: s.amount,
        campaignType: s.type,
        startTimestamp: nowB - 60,
        duration: 30 * DAY,
        campaignData: s.data,
      })),
    });
    specsB.forEach((s, i) =>
      expected.push({
        chainId: b.devnet.chainId,
        campaignId: txB.campaignIds[i]!,
        amount: net(s.amount),
        type: s.typeName,
        symbol: s.rewardToken.symbol,
        decimals: s.rewardToken.decimals,
        start: nowB - 60,
        end: nowB - 60 + 30 * DAY,
        status: 'LIVE',
        mainParameter: s.main.toLowerCase(),
      }),
    );
    // The ids the contract emitted are the ones derived off-chain (docs/contracts.md#campaign-id).
    expect(txA.campaignIds[0]).to.equal(
      computeCampaignId({
        chainId: a.devnet.chainId,
        creator: a.stack.deployer,
        rewardToken: rwdA!.address,
        campaignType: 1,
        startTimestamp: specsA[0]!.start,
        duration: specsA[0]!.duration,
        campaignData: dataA,
      }),
    );

    expect((await h.runJob('blocks')).status).to.equal('success');
    expect((await h.runJob('campaigns')).status).to.equal('success');
    await h.refresh();
  });

  after(async () => h?.close());

  it('returns exactly the created campaigns, with the fields of the Campaign record', async function () {
    const res = await h.request().get('/v4/campaigns').query({ items: 100 }).expect(200);
    expect(res.body).to.have.length(expected.length);
    for (const e of expected) {
      const c = res.body.find((x: { campaignId: string }) => x.campaignId === e.campaignId.toLowerCase());
      expect(c, `campaign ${e.campaignId}`).to.exist;
      expect(c.id).to.equal(campaignDbId(e.chainId, e.campaignId));
      expect(c.id).to.match(/^\d{1,20}$/);
      expect(c.computeChainId).to.equal(e.chainId);
      expect(c.distributionChainId).to.equal(e.chainId);
      expect(c.type).to.equal(e.type);
      expect(c.amount).to.equal(e.amount.toString());
      expect(c.startTimestamp).to.equal(String(e.start));
      expect(c.endTimestamp).to.equal(String(e.end));
      expect(c.creatorAddress).to.equal(h.chains[0]!.stack.deployer.toLowerCase());
      expect(c.creator).to.deep.equal({ address: c.creatorAddress, tags: [], creatorId: null });
      expect(c.rewardToken).to.include({ symbol: e.symbol, decimals: e.decimals, chainId: e.chainId, type: 'TOKEN' });
      expect(c.rewardTokenId).to.equal(c.rewardToken.id);
      expect(c.chain).to.include({ id: e.chainId, name: `Test chain ${e.chainId}` });
      expect(c.distributionChain.id).to.equal(e.chainId);
      expect(c.opportunityId).to.match(/^\d+$/);
      expect(c.campaignStatus).to.include({ campaignId: c.campaignId });
      expect(new Date(c.createdAt).getTime()).to.be.greaterThan(0);
      expect(c).to.include({
        isPrivate: false,
        hidden: false,
        hasOverrides: false,
        rootCampaignId: null,
        parentCampaignId: null,
      });
      expect(c).not.to.have.any.keys('searchText', 'mainParameter', 'indexedAt', 'campaignType');
    }
  });

  it('stores amounts exactly in PostgreSQL (numeric, never float)', async function () {
    const { rows } = await h.apiPg.query<{ campaign_id: string; amount: string }>(
      'SELECT campaign_id, amount::text FROM campaigns',
    );
    expect(rows).to.have.length(expected.length);
    for (const e of expected)
      expect(rows.find((r) => r.campaign_id === e.campaignId.toLowerCase())?.amount).to.equal(e.amount.toString());
  });

  it('filters by compute chain', async function () {
    for (const chainId of [31337, 31338]) {
      const res = await h
        .request()
        .get('/v4/campaigns')
        .query({ chainId: String(chainId) })
        .expect(200);
      expect(res.body.map((c: { campaignId: string }) => c.campaignId).sort()).to.deep.equal(
        expected
          .filter((e) => e.chainId === chainId)
          .map((e) => e.campaignId.toLowerCase())
          .sort(),
      );
    }
  });

  it('filters by status, one value or a comma list', async function () {
    for (const status of ['LIVE', 'PAST', 'SOON', 'SOON,PAST', 'LIVE,PAST,SOON']) {
      const res = await h.request().get('/v4/campaigns/').query({ status }).expect(200);
      const wanted = status.split(',');
      expect(res.body.map((c: { campaignId: string }) => c.campaignId).sort(), status).to.deep.equal(
        expected
          .filter((e) => wanted.includes(e.status))
          .map((e) => e.campaignId.toLowerCase())
          .sort(),
      );
    }
  });

  it('pages without repeating or skipping a campaign', async function () {
    const seen: string[] = [];
    for (let page = 0; page < 3; page++) {
      const res = await h.request().get('/v4/campaigns').query({ page, items: 2 }).expect(200);
      expect(res.body.length).to.be.at.most(2);
      seen.push(...res.body.map((c: { id: string }) => c.id));
    }
    expect(seen).to.have.length(expected.length);
    expect(new Set(seen).size).to.equal(expected.length);
    const beyond = await h.request().get('/v4/campaigns').query({ page: 5, items: 2 }).expect(200);
    expect(beyond.body).to.deep.equal([]);
  });

  for (const [query, field] of [
    [{ chainId: 'abc' }, 'chainId'],
    [{ page: '-1' }, 'page'],
    [{ items: '0' }, 'items'],
    [{ items: '101' }, 'items'],
    [{ status: 'LIVE,NOPE' }, 'status'],
    [{ unknownFilter: '1' }, 'unknownFilter'],
  ] as const) {
    it(`answers 400 with a problem body naming ${field} for ${JSON.stringify(query)}`, async function () {
      const res = await h.request().get('/v4/campaigns').query(query).expect(400);
      expect(res.headers['content-type']).to.match(/^application\/problem\+json/);
      expect(res.body).to.include({ status: 400, title: 'Bad Request' });
      expect(res.body.errors.map((e: { field: string }) => e.field)).to.include(field);
    });
  }

  it('explains a bad comma list in plain words', async function () {
    const res = await h.request().get('/v4/campaigns').query({ status: 'LIVE,' }).expect(400);
    expect(res.body.errors).to.deep.equal([
      { field: 'status', message: 'must be a comma-separated list of LIVE, PAST, SOON' },
    ]);
  });

  it('names every bad field at once', async function () {
    const res = await h.request().get('/v4/campaigns').query({ chainId: 'x', page: '-2' }).expect(400);
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).to.deep.equal(['chainId', 'page']);
  });

  it('serves /v4/chains with live campaign counts from indexed data', async function () {
    const res = await h.request().get('/v4/chains').expect(200);
    expect(res.body.map((c: { id: number }) => c.id)).to.deep.equal([31337, 31338]);
    for (const chain of res.body) {
      expect(chain).to.have.all.keys(
        'id',
        'name',
        'icon',
        'liveCampaigns',
        'endOfDisputePeriod',
        'explorers',
        'lastClaimsOnchainFetchTimestamp',
      );
      expect(chain.liveCampaigns).to.equal(
        expected.filter((e) => e.chainId === chain.id && e.status === 'LIVE').length,
      );
      expect(chain.explorers[0]).to.include({ type: 'BLOCKSCOUT', chainId: chain.id });
    }
    for (const test of ['true', '1', 'false', '0']) await h.request().get('/v4/chains').query({ test }).expect(200);
    const badFlag = await h.request().get('/v4/chains').query({ test: 'maybe' }).expect(400);
    expect(badFlag.body.errors).to.deep.equal([{ field: 'test', message: 'must be boolean' }]);
    const named = await h.request().get('/v4/chains/').query({ name: 'chain 31338' }).expect(200);
    expect(named.body.map((c: { id: number }) => c.id)).to.deep.equal([31338]);
  });

  it('reports every dependency and job in /v4/health', async function () {
    const res = await h.request().get('/v4/health').expect(200);
    expect(res.body.status).to.equal('ok');
    expect(res.body.postgres.ok).to.equal(true);
    expect(res.body.elasticsearch.ok).to.equal(true);
    expect(res.body.chains.map((c: { id: number; rpc: { ok: boolean } }) => [c.id, c.rpc.ok])).to.deep.equal([
      [31337, true],
      [31338, true],
    ]);
    const campaignsJob = res.body.jobs.find((j: { name: string }) => j.name === 'campaigns');
    expect(campaignsJob.lastRun.status).to.equal('success');
    expect(campaignsJob.chains).to.have.length(2);
    for (const c of campaignsJob.chains) expect(c.lagBlocks).to.equal(0);
    expect(res.body.outbox.depth).to.equal(0);
  });

  it('answers reads with CDN cache headers and an ETag (304 on a match); private when credentials are sent', async function () {
    const first = await h.request().get('/v4/campaigns').expect(200);
    expect(first.headers['cache-control']).to.equal('public, max-age=30, stale-while-revalidate=60');
    expect(first.headers['etag']).to.be.a('string');
    await h.request().get('/v4/campaigns').set('if-none-match', first.headers['etag']!).expect(304);
    const keyed = await h.request().get('/v4/campaigns').set('x-api-key', 'k').expect(200);
    expect(keyed.headers['cache-control']).to.equal('private, no-store');
    const health = await h.request().get('/v4/health').expect(200);
    expect(health.headers['cache-control']).to.equal('no-store');
    // A user's rewards (claimed amounts) are revalidated on every use: a claim never shows late from a cache.
    const user = await h
      .request()
      .get(`/v4/users/0x${'9'.repeat(40)}/rewards?chainId=31337&breakdownPage=0`)
      .expect(200);
    expect(user.headers['cache-control']).to.equal('public, no-cache');
    await h
      .request()
      .get(`/v4/users/0x${'9'.repeat(40)}/rewards?chainId=31337&breakdownPage=0`)
      .set('if-none-match', user.headers['etag']!)
      .expect(304);
  });

  it('answers 404 and 405 as problem bodies', async function () {
    const missing = await h.request().get('/v4/nothing-here').expect(404);
    expect(missing.body).to.include({ status: 404 });
    const method = await h.request().post('/v4/campaigns').expect(405);
    expect(method.body).to.include({ status: 405 });
  });
});
