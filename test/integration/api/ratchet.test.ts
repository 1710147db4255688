import { expect } from 'chai';
import { createCampaigns, encodeErc20CampaignData, getLatestTimestamp } from '../../../contracts/actions.js';
import { campaignDbId } from '../../../indexer/ids.js';
import { createHarness, type Harness } from '../../helpers/harness.js';

const DAY = 86_400;

describe('GET /v4/sofr-ratchet/*', function () {
  let h: Harness;
  let campaignId: string;
  let opportunityId: string;
  let start: number;

  before(async function () {
    h = await createHarness({ chainIds: [31337] });
    const { devnet, stack } = h.chains[0]!;
    start = (await getLatestTimestamp({ rpcUrl: devnet.rpcUrl })) - 20 * DAY;
    const created = await createCampaigns({ rpcUrl: devnet.rpcUrl, chainId: devnet.chainId, stack, campaigns: [{ rewardToken: stack.tokens.rewards[0]!.address,
      amount: 10n ** 21n, campaignType: 1, startTimestamp: start, duration: 60 * DAY, campaignData: encodeErc20CampaignData({ targetToken: stack.tokens.targets[0]!.address }) }] });
    for (const job of ['blocks', 'campaigns']) await h.runJob(job);
    campaignId = campaignDbId(31337, created.campaignIds[0]!);
    opportunityId = (await h.apiPg.query<{ opportunity_id: string }>('SELECT opportunity_id FROM campaigns WHERE id = $1', [campaignId])).rows[0]!.opportunity_id;
    // TVL history: 1.5M a day during the 14 days before the first recalculation (start + 14 days), then 0.5M.
    const writer = h.deps.pg;
    for (let d = 0; d <= 20; d++) {
      await writer.query('INSERT INTO opportunity_snapshots (opportunity_id, ts, apr, tvl, native_apr, daily_rewards) VALUES ($1, to_timestamp($2), 0, $3, 0, 0)',
        [opportunityId, start + d * DAY, d < 14 ? 1_500_000 : 500_000]);
    }
  });

  after(async () => h?.close());

  it('rates a campaign from its stored settings: frozen mean TVL before the last recalculation, baseline target', async function () {
    const res = await h.request().get(`/v4/sofr-ratchet/campaign/${campaignId}`).expect(200);
    expect(res.body).to.include({ campaignId, opportunityId, anchor: start, curve: 'BASELINE', lastRecalculation: start + 14 * DAY, nextRecalculation: start + 28 * DAY, liveRate: 4.3, frozenMeanTvl: 1_500_000, boostActive: true });
    expect(res.body.baselineApy).to.be.closeTo(5.3, 1e-9);
    expect(res.body.campaignApr).to.be.closeTo(5.3, 1e-9);
  });

  it('rates an opportunity at an explicit anchor and time; before a full window the mean is partial', async function () {
    const res = await h.request().get(`/v4/sofr-ratchet/opportunity/${opportunityId}`).query({ anchor: start + 7 * DAY, at: start + 22 * DAY, period: 14 * DAY }).expect(200);
    // Last recalculation start + 21 days: mean over days 7..20 = (7 × 1.5M + 7 × 0.5M) / 14.
    expect(res.body).to.include({ lastRecalculation: start + 21 * DAY, frozenMeanTvl: 1_000_000, boostActive: true });
  });

  it('answers 400 naming anchor when missing, 404 for unknown ids', async function () {
    const bad = await h.request().get(`/v4/sofr-ratchet/opportunity/${opportunityId}`).expect(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field)).to.deep.equal(['anchor']);
    await h.request().get('/v4/sofr-ratchet/opportunity/123').query({ anchor: 1 }).expect(404);
    await h.request().get('/v4/sofr-ratchet/campaign/123').expect(404);
  });
});
