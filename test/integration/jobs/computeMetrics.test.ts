import { expect } from 'chai';
import { createCampaigns, encodeErc20CampaignData, getLatestTimestamp } from '../../../contracts/actions.js';
import { campaignDbId } from '../../../domain/ids.js';
import { indexNames } from '../../../internal/es.js';
import { startPriceApiServer, type PriceApiServer } from '../../../scripts/priceApiServer.js';
import { recomputeMetrics } from '../../../scripts/recomputeMetrics.js';
import { runMetrics } from '../../../jobs/computeMetrics.js';
import { createHarness, type Harness } from '../../helpers/harness.js';

const DAY = 86_400;
const FEE = 30_000_000n; // 3% in base 1e9

describe('jobs/computeMetrics', function () {
  let h: Harness;
  let api: PriceApiServer;
  const ids: Record<string, string> = {};
  const net = (gross: bigint) => (gross * (1_000_000_000n - FEE)) / 1_000_000_000n;

  before(async function () {
    api = await startPriceApiServer();
    h = await createHarness({ chainIds: [31337], env: { PRICE_API_URL: api.url } });
    const { devnet, stack } = h.chains[0]!;
    const rpcUrl = devnet.rpcUrl;
    const [rwd, usdc] = stack.tokens.rewards;
    const [stTst, tlp] = stack.tokens.targets;
    api.prices.set(`chain-31337:${stTst!.address.toLowerCase()}`, 4); // target token: $4, no feed
    const now = await getLatestTimestamp({ rpcUrl });
    const hold = encodeErc20CampaignData({ targetToken: stTst!.address });
    const unpriced = encodeErc20CampaignData({ targetToken: tlp!.address }); // no price for TLP: TVL unknown
    const created = await createCampaigns({
      rpcUrl,
      chainId: devnet.chainId,
      stack,
      campaigns: [
        {
          rewardToken: rwd!.address,
          amount: 7000n * 10n ** 18n,
          campaignType: 1,
          startTimestamp: now - 3600,
          duration: 7 * DAY,
          campaignData: hold,
        },
        {
          rewardToken: usdc!.address,
          amount: 1400n * 10n ** 6n,
          campaignType: 1,
          startTimestamp: now - 60,
          duration: 14 * DAY,
          campaignData: hold,
        },
        {
          rewardToken: rwd!.address,
          amount: 10n ** 18n,
          campaignType: 1,
          startTimestamp: now + 5 * DAY,
          duration: DAY,
          campaignData: hold,
        },
        {
          rewardToken: rwd!.address,
          amount: 10n ** 18n,
          campaignType: 1,
          startTimestamp: now - 30,
          duration: DAY,
          campaignData: unpriced,
        },
      ],
    });
    ['live', 'liveUsdc', 'soon', 'unpriced'].forEach(
      (name, i) => (ids[name] = campaignDbId(31337, created.campaignIds[i]!)),
    );
    for (const job of ['blocks', 'campaigns', 'tokens', 'prices', 'metrics', 'publish'])
      expect((await h.runJob(job)).status, job).to.equal('success');
    await h.refresh();
  });

  after(async () => {
    await h?.close();
    await api?.close();
  });

  it('computes dailyRewards = net amount / days × price and APR = daily × 365 / TVL × 100', async function () {
    const { rows } = await h.apiPg.query<{
      campaign_db_id: string;
      status: string;
      daily_rewards_usd: number;
      apr: number;
      tvl_usd: number;
      daily_amount: string;
      campaign_status: { status: string; error?: string };
    }>(
      'SELECT campaign_db_id, status, daily_rewards_usd, apr, tvl_usd, daily_amount::text, campaign_status FROM campaign_metrics',
    );
    const by = (id: string) => rows.find((r) => r.campaign_db_id === id)!;
    const tvl = 1_000_000 * 4; // deployStack mints 1e6 stTST; $4 each from the price API
    const liveDaily = (Number(net(7000n * 10n ** 18n)) / 1e18 / 7) * 2.5;
    expect(by(ids['live']!).tvl_usd).to.be.closeTo(tvl, 1e-6);
    expect(by(ids['live']!).daily_rewards_usd).to.be.closeTo(liveDaily, 1e-9);
    expect(by(ids['live']!).apr).to.be.closeTo((liveDaily * 365 * 100) / tvl, 1e-9);
    expect(by(ids['live']!).daily_amount).to.equal(((net(7000n * 10n ** 18n) * 86_400n) / (7n * 86_400n)).toString());
    expect(by(ids['liveUsdc']!).daily_rewards_usd).to.be.closeTo((Number(net(1400n * 10n ** 6n)) / 1e6 / 14) * 1, 1e-9);
    expect(by(ids['live']!)).to.include({ status: 'LIVE' });
    expect(by(ids['live']!).campaign_status.status).to.equal('SUCCESS');
    expect(by(ids['soon']!)).to.include({ status: 'SOON' });
    expect(by(ids['soon']!).campaign_status).to.include({ status: 'SKIPPED', error: 'campaign has not started' });
    expect(by(ids['unpriced']!).tvl_usd, 'no price for the target: TVL unknown, never guessed').to.equal(null);
    expect(by(ids['unpriced']!).apr).to.equal(null);
  });

  it('aggregates opportunities over their LIVE campaigns, with the record breakdowns', async function () {
    const index = indexNames(h.config.esIndexPrefix, 'opportunities').read;
    const hits = (await h.deps.es.search<Record<string, any>>({ index, size: 10 })).hits.hits.map((x) => x._source!); // eslint-disable-line @typescript-eslint/no-explicit-any
    const hold = hits.find((d) => d['identifier'] === h.chains[0]!.stack.tokens.targets[0]!.address.toLowerCase())!;
    const { rows } = await h.apiPg.query<{ campaign_db_id: string; daily_rewards_usd: number }>(
      'SELECT campaign_db_id, daily_rewards_usd FROM campaign_metrics',
    );
    const daily = rows
      .filter((r) => r.campaign_db_id === ids['live'] || r.campaign_db_id === ids['liveUsdc'])
      .reduce((s, r) => s + r.daily_rewards_usd, 0);
    expect(hold['tvl']).to.be.closeTo(4_000_000, 1e-6);
    expect(hold['dailyRewards']).to.be.closeTo(daily, 1e-9);
    expect(hold['apr']).to.be.closeTo((daily * 365 * 100) / 4_000_000, 1e-9);
    expect(hold['aprRecord'].breakdowns).to.have.length(2);
    expect(hold['rewardsRecord'].breakdowns.map((b: { campaignId: string }) => b.campaignId).sort()).to.deep.equal(
      [ids['live'], ids['liveUsdc']].sort(),
    );
    expect(hold['tvlRecord'].breakdowns).to.deep.equal([
      { identifier: h.chains[0]!.stack.tokens.targets[0]!.address.toLowerCase(), type: 'TOKEN', value: hold['tvl'] },
    ]);
    expect(hold['tokens'][0]).to.include({ symbol: 'stTST', price: 4, priceSource: 'DEFILLAMA' });
    // Each breakdown carries the full Token record (spec › Token), not a partial reference.
    const rwdBreakdown = hold['rewardsRecord'].breakdowns.find(
      (b: { campaignId: string }) => b.campaignId === ids['live'],
    );
    expect(rwdBreakdown.token).to.include({
      name: 'Reward Token',
      symbol: 'RWD',
      decimals: 18,
      verified: true,
      isNative: false,
      isTest: false,
      type: 'TOKEN',
      price: 2.5,
      priceSource: 'ONCHAIN_CALL',
    });
    expect(rwdBreakdown.token).to.include.all.keys(
      'id',
      'name',
      'chainId',
      'address',
      'decimals',
      'symbol',
      'icon',
      'verified',
      'isNative',
      'isTest',
      'type',
      'price',
      'updatedAt',
      'priceSource',
    );
    const served = (await h.request().get(`/v4/opportunities/${hold['id']}`).expect(200)).body;
    const servedToken = served.rewardsRecord.breakdowns.find(
      (b: { campaignId: string }) => b.campaignId === ids['live'],
    ).token;
    const campaignToken = (await h.request().get(`/v4/campaigns/${ids['live']}`).expect(200)).body.rewardToken;
    expect(servedToken).to.deep.equal(campaignToken);
  });

  it('serves the figures on campaigns', async function () {
    const res = await h.request().get('/v4/campaigns').query({ items: 100 }).expect(200);
    const live = res.body.find((c: { id: string }) => c.id === ids['live']);
    expect(live.apr).to.be.greaterThan(0);
    expect(live.dailyRewards).to.be.greaterThan(0);
    expect(live.campaignStatus.status).to.equal('SUCCESS');
    expect(live.rewardToken).to.include({ price: 2.5, priceSource: 'ONCHAIN_CALL' });
    expect(live.dailyRewardsBreakdown[0]).to.include({ campaignId: ids['live'], onChainCampaignId: live.campaignId });
  });

  it('records one history snapshot per run and minute', async function () {
    await h.runJob('metrics');
    const { rows } = await h.apiPg.query<{ n: string }>('SELECT count(*) AS n FROM opportunity_snapshots');
    const { rows: opps } = await h.apiPg.query<{ n: string }>('SELECT count(*) AS n FROM opportunities');
    expect(Number(rows[0]!.n)).to.be.within(Number(opps[0]!.n), 2 * Number(opps[0]!.n));
  });

  it('stores every figure with its inputs: an independent recomputation agrees', async function () {
    const report = await recomputeMetrics({ databaseUrl: h.config.databaseUrl });
    expect(report.checked).to.be.greaterThan(0);
    expect(report.mismatches).to.deep.equal([]);
  });

  it('a campaign earns only inside [start, end): finished it serves 0, its history exists only in its window, and the opportunity is the sum of its campaigns at each instant', async function () {
    const { devnet, stack } = h.chains[0]!;
    const now = await getLatestTimestamp({ rpcUrl: devnet.rpcUrl });
    const start = Math.floor(now / 60) * 60 - 3 * 3600;
    const end = start + 3600;
    const created = await createCampaigns({
      rpcUrl: devnet.rpcUrl,
      chainId: devnet.chainId,
      stack,
      campaigns: [
        {
          rewardToken: stack.tokens.rewards[0]!.address,
          amount: 500n * 10n ** 18n,
          campaignType: 1,
          startTimestamp: start,
          duration: 3600,
          campaignData: encodeErc20CampaignData({ targetToken: stack.tokens.targets[0]!.address }),
        },
      ],
    });
    const id = campaignDbId(31337, created.campaignIds[0]!);
    for (const job of ['blocks', 'campaigns', 'metrics', 'publish'])
      expect((await h.runJob(job)).status, job).to.equal('success');
    await h.refresh();

    const {
      rows: [current],
    } = await h.apiPg.query(
      'SELECT status, daily_rewards_usd, apr, daily_amount::text FROM campaign_metrics WHERE campaign_db_id = $1',
      [id],
    );
    expect(current).to.deep.equal({ status: 'PAST', daily_rewards_usd: 0, apr: 0, daily_amount: '0' });
    const served = (await h.request().get(`/v4/campaigns/${id}`).expect(200)).body;
    expect([served.dailyRewards, served.apr]).to.deep.equal([0, 0]);

    // History at three instants: before its start, inside its window, after its end.
    const instants = [start - 1800, start + 1800, end + 1800];
    for (const t of instants) await runMetrics(h.deps, { at: new Date(t * 1000), snapshotOnly: true });
    const { rows: snaps } = await h.apiPg.query<{ ts: string; daily_rewards: number; apr: number }>(
      'SELECT extract(epoch FROM ts)::bigint::text AS ts, daily_rewards, apr FROM campaign_snapshots WHERE campaign_db_id = $1 ORDER BY ts',
      [id],
    );
    expect(
      snaps.map((r) => Number(r.ts)),
      'records only inside [start, end)',
    ).to.deep.equal([start + 1800]);
    expect(snaps[0]!.daily_rewards).to.be.closeTo((Number(net(500n * 10n ** 18n)) / 1e18) * 24 * 2.5, 1e-6);
    const metrics = (await h.request().get(`/v4/campaigns/${id}/metrics`).expect(200)).body;
    expect(metrics.aprRecords.map((r: { timestamp: string }) => Number(r.timestamp))).to.deep.equal([start + 1800]);

    const opportunityId = (await h.apiPg.query('SELECT opportunity_id FROM campaigns_current WHERE id = $1', [id]))
      .rows[0].opportunity_id;
    for (const t of instants) {
      const {
        rows: [opp],
      } = await h.apiPg.query<{ daily_rewards: number; apr: number }>(
        'SELECT daily_rewards, apr FROM opportunity_snapshots WHERE opportunity_id = $1 AND ts = to_timestamp($2)',
        [opportunityId, t],
      );
      const {
        rows: [sum],
      } = await h.apiPg.query<{ daily: number | null; apr: number | null; n: string }>(
        `SELECT sum(s.daily_rewards) AS daily, sum(s.apr) AS apr, count(*) AS n FROM campaign_snapshots s JOIN campaigns_current c ON c.id = s.campaign_db_id
         WHERE c.opportunity_id = $1 AND s.ts = to_timestamp($2)`,
        [opportunityId, t],
      );
      if (t === start - 1800) {
        expect(opp, 'no opportunity record before any of its campaigns started').to.equal(undefined);
        expect(sum!.n).to.equal('0');
        continue;
      }
      expect(opp!.daily_rewards, `daily at ${t}`).to.be.closeTo(sum!.daily ?? 0, 1e-9);
      expect(opp!.apr, `apr at ${t}`).to.be.closeTo(sum!.apr ?? 0, 1e-9);
    }
    const report = await recomputeMetrics({ databaseUrl: h.config.databaseUrl });
    expect(report.mismatches).to.deep.equal([]);
  });
});
