import { expect } from 'chai';
import {
  computeCampaignMetrics,
  computeOpportunityMetrics,
  tvlStatusOf,
  tvlUsdOf,
  type CampaignMetricsInput,
  type TvlReading,
} from '../../../../indexer/transform/computeMetrics.js';

const DAY = 86_400;
const price = (p: number) => ({ price: p, priceSource: 'TEST', updatedAt: 0, stale: false });
/** 7000 tokens over 7 days at $2: 2000 USD a day inside the window. */
const campaign = (id: string, start: number, end: number): CampaignMetricsInput => ({
  id,
  campaignId: `0x${id}`,
  opportunityId: 'opp',
  rewardTokenId: 't',
  rewardDecimals: 18,
  amount: (7000n * 10n ** 18n).toString(),
  start,
  end,
  rewardPrice: price(2) as never,
});
const reading: TvlReading = {
  method: 'ERC20_TOTAL_SUPPLY',
  tokens: [
    {
      tokenId: 'x',
      tokenAddress: '0xaa',
      amount: (1_000_000n * 10n ** 18n).toString(),
      decimals: 18,
      price: price(1) as never,
    },
  ],
};
const T0 = 1_762_214_400; // 4 Nov 2025 00:00 UTC

describe('indexer/transform/computeMetrics: a campaign earns only inside [start, end)', () => {
  const c = campaign('a', T0, T0 + 7 * DAY);

  it('LIVE: dailyRewards = amount / days × price, APR = daily × 365 / TVL × 100', () => {
    const m = computeCampaignMetrics(c, 1_000_000, T0 + DAY, T0 + DAY);
    expect(m.phase).to.equal('LIVE');
    expect(m.dailyRewardsUsd).to.be.closeTo(2000, 1e-9);
    expect(m.apr).to.be.closeTo(73, 1e-9);
    expect(m.dailyAmount).to.equal((1000n * 10n ** 18n).toString());
  });

  it('finished (now >= end, the end itself included): dailyRewards 0, APR 0, daily amount 0', () => {
    for (const now of [T0 + 7 * DAY, T0 + 20 * DAY]) {
      const m = computeCampaignMetrics(c, 1_000_000, now, now);
      expect(m.phase).to.equal('PAST');
      expect([m.dailyRewardsUsd, m.apr, m.dailyAmount]).to.deep.equal([0, 0, '0']);
    }
  });

  it('not started: dailyRewards 0, APR 0, computation SKIPPED', () => {
    const m = computeCampaignMetrics(c, 1_000_000, T0 - 1, T0 - 1);
    expect([m.phase, m.dailyRewardsUsd, m.apr, m.dailyAmount, m.campaignStatus.status]).to.deep.equal([
      'SOON',
      0,
      0,
      '0',
      'SKIPPED',
    ]);
  });

  it('the opportunity is the sum of its campaigns at the same instant: a finished campaign adds nothing', () => {
    const now = T0 + 8 * DAY;
    const live = campaign('b', T0 + 7 * DAY, T0 + 14 * DAY);
    const ms = [c, live].map((x) => ({
      ...computeCampaignMetrics(x, 1_000_000, now, now),
      campaignId: x.campaignId,
      token: {},
      amount: x.amount,
    }));
    const o = computeOpportunityMetrics('opp', ms, reading, now);
    expect(o.dailyRewards).to.be.closeTo(
      ms.reduce((s, m) => s + (m.dailyRewardsUsd ?? 0), 0),
      1e-9,
    );
    expect(o.dailyRewards).to.be.closeTo(2000, 1e-9);
    expect(o.apr).to.be.closeTo(
      ms.reduce((s, m) => s + (m.apr ?? 0), 0),
      1e-9,
    );
    expect(o.apr).to.be.closeTo(73, 1e-9);
    expect(o.records.aprRecord.breakdowns.map((b) => b.identifier)).to.deep.equal(['0xb']);
    expect(o.started).to.equal(true);
  });

  it('an opportunity whose campaigns have not started has no history yet (started false) and 0 figures', () => {
    const ms = [
      {
        ...computeCampaignMetrics(c, 1_000_000, T0 - DAY, T0 - DAY),
        campaignId: c.campaignId,
        token: {},
        amount: c.amount,
      },
    ];
    const o = computeOpportunityMetrics('opp', ms, reading, T0 - DAY);
    expect([o.started, o.dailyRewards, o.apr]).to.deep.equal([false, 0, 0]);
  });
});

describe('indexer/transform/computeMetrics: TVL of a reading with several tokens (a Uniswap V3 pool)', () => {
  const pool = (p0: ReturnType<typeof price> | undefined, p1: ReturnType<typeof price> | undefined): TvlReading => ({
    method: 'UNISWAP_V3_POOL',
    tokens: [
      {
        tokenId: 't0',
        tokenAddress: '0x00',
        amount: (1500n * 10n ** 18n).toString(),
        decimals: 18,
        price: p0 as never,
      },
      { tokenId: 't1', tokenAddress: '0x01', amount: (2500n * 10n ** 6n).toString(), decimals: 6, price: p1 as never },
    ],
  });

  it('sums amount × price over the pool tokens, one TOKEN breakdown each', () => {
    const reading = pool(price(2), price(1));
    expect(tvlUsdOf(reading)).to.be.closeTo(1500 * 2 + 2500, 1e-9);
    const o = computeOpportunityMetrics('opp', [], reading, T0);
    expect(o.tvl).to.be.closeTo(5500, 1e-9);
    expect(o.records.tvlRecord.breakdowns).to.deep.equal([
      { identifier: '0x00', type: 'TOKEN', value: 3000 },
      { identifier: '0x01', type: 'TOKEN', value: 2500 },
    ]);
    expect(o.records.tvlRecord).to.not.have.property('unpricedTokens');
  });

  it('a pool token without a fresh price makes the TVL unknown, never the priced half, and is named', () => {
    const reading = pool(price(2), undefined);
    expect(tvlUsdOf(reading)).to.equal(null);
    const o = computeOpportunityMetrics('opp', [], reading, T0);
    // #42: unknown is null (was 0), the record's total stays a number with the reason beside it.
    expect([o.tvl, o.apr, o.tvlStatus, o.records.tvlRecord.breakdowns]).to.deep.equal([null, null, 'unpriced', []]);
    expect([o.records.tvlRecord.total, o.records.tvlRecord.status]).to.deep.equal([0, 'unpriced']);
    expect(o.records.tvlRecord.unpricedTokens).to.deep.equal(['t1']);
    expect(o.inputs.tvl.tokens.map((t) => t.price)).to.deep.equal([price(2), null]);
  });

  it("keeps a refusing reader's reason and its words with the stored inputs, and stores none when there is none", () => {
    const refused = computeOpportunityMetrics(
      'opp',
      [],
      { method: 'NONE', tokens: [], reason: 'read-failed', detail: '9 initialized ticks exceed the bound of 4' },
      T0,
    );
    expect(refused.inputs.tvl).to.deep.equal({
      method: 'NONE',
      reason: 'read-failed',
      detail: '9 initialized ticks exceed the bound of 4',
      tokens: [],
    });
    expect(refused.records.tvlRecord.status).to.equal('read-failed');
    const known = computeOpportunityMetrics('opp', [], pool(price(2), price(1)), T0).inputs.tvl;
    expect(known).to.not.have.property('reason');
    expect(known).to.not.have.property('detail');
  });
});

describe('indexer/transform/computeMetrics: a TVL that cannot be known is null with its reason, never 0 (#42)', () => {
  const live = computeCampaignMetrics(campaign('a', T0, T0 + 7 * DAY), null, T0 + DAY, T0 + DAY);
  const ms = [{ ...live, campaignId: live.id, token: {}, amount: '1' }];

  for (const [title, r, status] of [
    [
      'an identifier its type is not read from',
      { method: 'NONE', tokens: [], reason: 'unsupported-target' },
      'unsupported-target',
    ],
    ['a read that failed', { method: 'NONE', tokens: [] }, 'read-failed'],
    [
      'a reading of a token without a price',
      { ...reading, tokens: [{ ...reading.tokens[0]!, price: undefined }] },
      'unpriced',
    ],
  ] as [string, TvlReading, string][])
    it(`${title}: tvl and apr null, tvlRecord.status ${status}`, () => {
      const o = computeOpportunityMetrics('opp', ms, r, T0 + DAY);
      expect(tvlStatusOf(r)).to.equal(status);
      expect([o.tvl, o.apr, o.tvlStatus]).to.deep.equal([null, null, status]);
      expect(o.records.tvlRecord).to.include({ total: 0, status });
      expect(o.records.aprRecord.cumulated).to.equal(0);
      expect(o.dailyRewards, 'daily rewards do not depend on the TVL').to.be.closeTo(2000, 1e-9);
    });

  it('a read and priced TVL is ok, its APR a number', () => {
    const o = computeOpportunityMetrics('opp', ms, reading, T0 + DAY);
    expect([o.tvl, o.tvlStatus, o.records.tvlRecord.status]).to.deep.equal([1_000_000, 'ok', 'ok']);
    expect(o.apr).to.be.a('number');
  });

  it('an Aave V3 aToken reading (in its underlying) is valued like any token reading', () => {
    const r: TvlReading = { ...reading, method: 'AAVE_V3_ATOKEN' };
    expect(tvlUsdOf(r)).to.equal(1_000_000);
    expect(tvlStatusOf(r)).to.equal('ok');
  });
});
