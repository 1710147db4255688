import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createCampaigns, encodeErc20CampaignData, getLatestTimestamp } from '../../../contracts/actions.js';
import { signSession } from '../../../api/identity/jwt.js';
import { privateKeyToAccount } from 'viem/accounts';
import { HARDHAT_DEPLOYER_KEY } from '../../../contracts/clients.js';
import { campaignDbId } from '../../../domain/ids.js';
import { createHarness, type Harness } from '../../helpers/harness.js';

const DAY = 86_400;
const RATCHET_CONFIG = {
  distributionMethodParameters: {
    distributionMethod: 'SOFR_SPREAD_RATCHET',
    ratchet: {
      spread: 1,
      tiers: [
        { minTvl: 1_000_000, boost: 1 },
        { minTvl: 5_000_000, boost: 2.5 },
      ],
    },
  },
};
const dayOf = (t: number) => new Date(t * 1000).toISOString().slice(0, 10);

/** A real local HTTP server publishing a benchmark-rate series in the public refRates shape. */
async function startRateServer(rows: () => unknown[]): Promise<{ url: string; server: Server }> {
  const server = createServer(
    (_req, res) =>
      void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ refRates: rows() })),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/rates`, server };
}

describe('GET /v4/sofr-ratchet/*', function () {
  let h: Harness;
  let campaignId: string;
  /** An ERC20 campaign without ratchet settings. */
  let plainCampaignId: string;
  let opportunityId: string;
  let start: number;
  let rateRows: unknown[] = [];
  let rateServer: Server;

  /** One 60-day campaign of the devnet's first reward token, indexed (blocks, campaigns); its on-chain id. */
  async function createIndexedCampaign(campaignType: number, startTimestamp: number, campaignData: `0x${string}`) {
    const { devnet, stack } = h.chains[0]!;
    const created = await createCampaigns({
      rpcUrl: devnet.rpcUrl,
      chainId: devnet.chainId,
      stack,
      campaigns: [
        {
          rewardToken: stack.tokens.rewards[0]!.address,
          amount: 10n ** 21n,
          campaignType,
          startTimestamp,
          duration: 60 * DAY,
          campaignData,
        },
      ],
    });
    for (const job of ['blocks', 'campaigns']) await h.runJob(job);
    return created.campaignIds[0]!;
  }

  before(async function () {
    const rates = await startRateServer(() => rateRows);
    rateServer = rates.server;
    h = await createHarness({ chainIds: [31337], env: { BENCHMARK_RATE_URL: rates.url } });
    const { devnet, stack } = h.chains[0]!;
    start = (await getLatestTimestamp({ rpcUrl: devnet.rpcUrl })) - 20 * DAY;
    const created = await createIndexedCampaign(
      1,
      start,
      encodeErc20CampaignData({ targetToken: stack.tokens.targets[0]!.address }),
    );
    campaignId = campaignDbId(31337, created);
    plainCampaignId = campaignDbId(
      31337,
      await createIndexedCampaign(1, start, encodeErc20CampaignData({ targetToken: stack.tokens.targets[1]!.address })),
    );
    // A ratchet campaign: its creator attaches ratchet settings (spread 1, the default tiers) through the config store.
    const { hash } = (await h.request().post('/v4/config/store').send(RATCHET_CONFIG).expect(200)).body;
    const attached = await h
      .request()
      .get(`/v4/config/hash/${hash}`)
      .set(sessionOf(privateKeyToAccount(HARDHAT_DEPLOYER_KEY).address))
      .query({ campaignId: created, distributionChainId: 31337 })
      .expect(200);
    expect(attached.headers['x-config-association']).to.equal('attached; grounds=creator');
    opportunityId = (
      await h.apiPg.query<{ opportunity_id: string }>('SELECT opportunity_id FROM campaigns WHERE id = $1', [
        campaignId,
      ])
    ).rows[0]!.opportunity_id;
    // TVL history: 1.5M a day during the 14 days before the first recalculation (start + 14 days), then 0.5M.
    const writer = h.deps.pg;
    for (let d = 0; d <= 20; d++) {
      await writer.query(
        'INSERT INTO opportunity_snapshots (opportunity_id, ts, apr, tvl, native_apr, daily_rewards) VALUES ($1, to_timestamp($2), 0, $3, 0, 0)',
        [opportunityId, start + d * DAY, d < 14 ? 1_500_000 : 500_000],
      );
    }
  });

  const sessionOf = (address: string) => ({
    Cookie: `jwt=${signSession({ secret: h.config.jwtSecret, address: address.toLowerCase(), tier: 0 }).token}`,
  });
  const onChainIdOf = async (id: string) =>
    (await h.apiPg.query<{ campaign_id: string }>('SELECT campaign_id FROM campaigns WHERE id = $1', [id])).rows[0]!
      .campaign_id;

  after(async () => {
    await h?.close();
    rateServer?.closeAllConnections();
    await new Promise((resolve) => rateServer?.close(resolve));
  });

  it('answers null APYs, never a guess, before any benchmark rate is stored', async function () {
    const res = await h.request().get(`/v4/sofr-ratchet/campaign/${campaignId}`).expect(200);
    expect(res.body).to.include({
      frozenRate: null,
      liveRate: null,
      baselineApy: null,
      boostedApy: null,
      campaignApr: null,
      frozenMeanTvl: 1_500_000,
    });
    expect(res.body.reason).to.match(/no benchmark rate is stored yet/);
  });

  it('answers 404 for a campaign that is not a ratchet campaign, never default settings (issue 31)', async function () {
    const res = await h.request().get(`/v4/sofr-ratchet/campaign/${plainCampaignId}`).expect(404);
    expect(res.body.detail).to.match(/is not a ratchet campaign/);
    expect(res.body).not.to.have.property('spread');
  });

  it('accepts the on-chain campaign id, alone or with its chain, as the other campaign routes (issue 31)', async function () {
    const onChainId = await onChainIdOf(campaignId);
    const { at: _, ...byId } = (await h.request().get(`/v4/sofr-ratchet/campaign/${campaignId}`).expect(200)).body;
    for (const id of [onChainId, onChainId.toUpperCase().replace('0X', '0x'), `31337-${onChainId}`]) {
      const { at: __, ...res } = (await h.request().get(`/v4/sofr-ratchet/campaign/${id}`).expect(200)).body;
      expect(res, id).to.deep.equal(byId);
    }
    await h
      .request()
      .get(`/v4/sofr-ratchet/campaign/0x${'ab'.repeat(32)}`)
      .expect(404);
    const bad = await h.request().get('/v4/sofr-ratchet/campaign/nope').expect(400);
    expect(bad.body.errors[0]).to.deep.include({ field: 'campaignId' });
    expect(bad.body.errors[0].message).to.match(/^must be a campaign id/);
  });

  it('stores the published series with the benchmark-rate job (other types and bad rows skipped, reruns idempotent)', async function () {
    rateRows = [
      { effectiveDate: dayOf(start - DAY), type: 'SOFR', percentRate: 4.0 },
      { effectiveDate: dayOf(start + 14 * DAY), type: 'SOFR', percentRate: '4.30' },
      { effectiveDate: dayOf(start + 22 * DAY), type: 'SOFR', percentRate: 4.5 },
      { effectiveDate: dayOf(start + 15 * DAY), type: 'EFFR', percentRate: 9.9 },
      { effectiveDate: 'not a day', type: 'SOFR', percentRate: 1 },
    ];
    await h.runJob('benchmark-rate');
    await h.runJob('benchmark-rate');
    const { rows } = await h.apiPg.query<{ day: string; rate: number }>(
      "SELECT to_char(day, 'YYYY-MM-DD') AS day, rate FROM benchmark_rates ORDER BY day",
    );
    expect(rows).to.deep.equal([
      { day: dayOf(start - DAY), rate: 4 },
      { day: dayOf(start + 14 * DAY), rate: 4.3 },
      { day: dayOf(start + 22 * DAY), rate: 4.5 },
    ]);
  });

  it('rates a campaign from its stored settings: frozen mean TVL before the last recalculation, baseline target', async function () {
    const res = await h.request().get(`/v4/sofr-ratchet/campaign/${campaignId}`).expect(200);
    expect(res.body).to.include({
      campaignId,
      opportunityId,
      anchor: start,
      curve: 'BASELINE',
      lastRecalculation: start + 14 * DAY,
      nextRecalculation: start + 28 * DAY,
      frozenRate: 4.3,
      frozenRateDay: dayOf(start + 14 * DAY),
      frozenMeanTvl: 1_500_000,
      nativeApr: 0,
      reason: null,
    });
    expect(res.body.baselineApy).to.be.closeTo(5.3, 1e-9);
    // 1.5M reaches the 1M tier (+1) of the default tiers, not the 5M one.
    expect(res.body.boostedApy).to.be.closeTo(6.3, 1e-9);
    expect(res.body.campaignApr).to.be.closeTo(5.3, 1e-9);
  });

  it('ignores a configuration attached by anyone but the creator: an anonymous or other-user GET attaches nothing', async function () {
    const onChainId = await onChainIdOf(campaignId);
    const before = (await h.request().get(`/v4/sofr-ratchet/campaign/${campaignId}`).expect(200)).body;
    const hostile = {
      distributionMethodParameters: { distributionMethod: 'SOFR_SPREAD_RATCHET', ratchet: { spread: 9, tiers: [] } },
    };
    const { hash } = (await h.request().post('/v4/config/store').send(hostile).expect(200)).body;
    for (const headers of [{}, sessionOf(`0x${'5'.repeat(40)}`)]) {
      const res = await h
        .request()
        .get(`/v4/config/hash/${hash}`)
        .set(headers)
        .query({ campaignId: onChainId, distributionChainId: 31337 })
        .expect(200);
      expect(res.body).to.deep.equal(hostile);
      expect(res.headers['x-config-association']).to.match(/^not-attached; reason="/);
    }
    const { rows } = await h.apiPg.query('SELECT 1 FROM campaign_config_associations WHERE config_hash = $1', [hash]);
    expect(rows).to.deep.equal([]);
    const after = (await h.request().get(`/v4/sofr-ratchet/campaign/${campaignId}`).expect(200)).body;
    expect(after.spread).to.equal(before.spread).and.not.equal(9);
  });

  it('ignores an association recorded before the rule (no grounds), even the latest one', async function () {
    const onChainId = await onChainIdOf(campaignId);
    const legacy = {
      distributionMethodParameters: { distributionMethod: 'SOFR_SPREAD_RATCHET', ratchet: { spread: 7, tiers: [] } },
    };
    const { hash } = (await h.request().post('/v4/config/store').send(legacy).expect(200)).body;
    await h.deps.pg.query(
      'INSERT INTO campaign_config_associations (config_hash, distribution_chain_id, campaign_id) VALUES ($1, 31337, $2)',
      [hash, onChainId],
    );
    const res = await h.request().get(`/v4/sofr-ratchet/campaign/${campaignId}`).expect(200);
    expect(res.body.spread).to.not.equal(7);
  });

  it("takes the settings of the configuration the campaign's creator attached through the config store", async function () {
    const onChainId = await onChainIdOf(campaignId);
    const config = {
      distributionMethodParameters: { distributionMethod: 'SOFR_SPREAD_RATCHET', ratchet: { spread: 2, tiers: [] } },
    };
    const { hash } = (await h.request().post('/v4/config/store').send(config).expect(200)).body;
    const attached = await h
      .request()
      .get(`/v4/config/hash/${hash}`)
      .set(sessionOf(privateKeyToAccount(HARDHAT_DEPLOYER_KEY).address))
      .query({ campaignId: onChainId, distributionChainId: 31337 })
      .expect(200);
    expect(attached.headers['x-config-association']).to.equal('attached; grounds=creator');
    const res = await h.request().get(`/v4/sofr-ratchet/campaign/${campaignId}`).expect(200);
    expect(res.body).to.include({ spread: 2, frozenRate: 4.3 });
    expect(res.body.tiers).to.deep.equal([]);
    expect(res.body.baselineApy).to.be.closeTo(6.3, 1e-9);
    expect(res.body.boostedApy, 'no tiers: no boost').to.be.closeTo(6.3, 1e-9);
  });

  it('takes the settings of the stored configuration a campaign commits to on-chain (config-hash form), attached by anyone', async function () {
    const config = {
      distributionMethodParameters: { distributionMethod: 'SOFR_SPREAD_RATCHET', ratchet: { spread: 3, tiers: [] } },
    };
    const { hash } = (await h.request().post('/v4/config/store').send(config).expect(200)).body;
    const onChainId = await createIndexedCampaign(4, start + 1, hash);
    const committed = campaignDbId(31337, onChainId);
    // Served from the commitment alone, before anyone attached anything.
    expect((await h.request().get(`/v4/sofr-ratchet/campaign/${committed}`).expect(200)).body.spread).to.equal(3);
    const res = await h
      .request()
      .get(`/v4/config/hash/${hash}`)
      .query({ campaignId: onChainId, distributionChainId: 31337 })
      .expect(200);
    expect(res.headers['x-config-association']).to.equal('attached; grounds=onchain');
    const { rows } = await h.apiPg.query(
      'SELECT grounds FROM campaign_config_associations WHERE config_hash = $1 AND campaign_id = $2',
      [hash, onChainId.toLowerCase()],
    );
    expect(rows).to.deep.equal([{ grounds: 'onchain' }]);
  });

  it('rates an opportunity at an explicit anchor and time; before a full window the mean is partial', async function () {
    const res = await h
      .request()
      .get(`/v4/sofr-ratchet/opportunity/${opportunityId}`)
      .query({ anchor: start + 7 * DAY, at: start + 22 * DAY, period: 14 * DAY })
      .expect(200);
    // Last recalculation start + 21 days: mean over days 7..20 = (7 × 1.5M + 7 × 0.5M) / 14.
    // No rate published on the recalculation day: the one of start + 14 days is carried forward; the live rate is newer.
    expect(res.body).to.include({
      lastRecalculation: start + 21 * DAY,
      frozenMeanTvl: 1_000_000,
      frozenRate: 4.3,
      frozenRateDay: dayOf(start + 14 * DAY),
      liveRate: 4.5,
    });
    expect(res.body.boostedApy).to.be.closeTo(6.3, 1e-9);
  });

  it('answers 400 naming anchor when missing, 404 for unknown ids', async function () {
    const bad = await h.request().get(`/v4/sofr-ratchet/opportunity/${opportunityId}`).expect(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field)).to.deep.equal(['anchor']);
    await h.request().get('/v4/sofr-ratchet/opportunity/123').query({ anchor: 1 }).expect(404);
    await h.request().get('/v4/sofr-ratchet/campaign/123').expect(404);
  });
});
