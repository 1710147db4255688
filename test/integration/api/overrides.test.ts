import { expect } from 'chai';
import type { Hex } from 'viem';
import {
  createCampaigns,
  encodeErc20CampaignData,
  getLatestTimestamp,
  overrideCampaign,
} from '../../../contracts/actions.js';
import { campaignDbId } from '../../../domain/ids.js';
import { createHarness, type Harness } from '../../helpers/harness.js';

const DAY = 86_400;

describe('POST /v4/overrides/check, GET /v4/overrides/{id}/previous-configs', function () {
  let h: Harness;
  let campaignId: Hex;
  let dbId: string;
  let now: number;
  let targets: { hold: Hex; other: Hex; holdAddress: string };

  before(async function () {
    this.timeout(300_000);
    h = await createHarness({ chainIds: [31337] });
    const { devnet, stack } = h.chains[0]!;
    const target = { rpcUrl: devnet.rpcUrl, chainId: devnet.chainId, stack };
    now = await getLatestTimestamp({ rpcUrl: devnet.rpcUrl });
    const [stTst, tlp] = stack.tokens.targets;
    targets = {
      hold: encodeErc20CampaignData({ targetToken: stTst!.address }),
      other: encodeErc20CampaignData({ targetToken: tlp!.address }),
      holdAddress: stTst!.address.toLowerCase(),
    };
    const created = await createCampaigns({
      ...target,
      campaigns: [
        {
          rewardToken: stack.tokens.rewards[0]!.address,
          amount: 1000n * 10n ** 18n,
          campaignType: 1,
          startTimestamp: now + DAY,
          duration: DAY,
          campaignData: targets.hold,
        },
      ],
    });
    campaignId = created.campaignIds[0]!;
    dbId = campaignDbId(31337, campaignId);
    await overrideCampaign({
      ...target,
      campaignId,
      campaign: { campaignType: 1, startTimestamp: now + DAY, duration: 2 * DAY, campaignData: targets.other },
    });
    await overrideCampaign({
      ...target,
      campaignId,
      campaign: { campaignType: 1, startTimestamp: now + DAY, duration: 3 * DAY, campaignData: targets.other },
    });
    for (const job of ['blocks', 'campaigns']) expect((await h.runJob(job)).status, job).to.equal('success');
  });
  after(async () => h?.close());

  describe('previous-configs', () => {
    it('lists the creation then every override but the current one, oldest first, by either id form', async () => {
      const list = (await h.request().get(`/v4/overrides/${dbId}/previous-configs`).expect(200)).body as Record<
        string,
        any
      >[];
      expect(list).to.have.length(2);
      expect(list.map((c) => c['config'].duration)).to.deep.equal([DAY, 2 * DAY]);
      expect(list.map((c) => c['config'].targetToken)).to.deep.equal([
        targets.holdAddress,
        list[1]!['config'].targetToken,
      ]);
      expect(list[1]!['config'].targetToken).to.not.equal(targets.holdAddress);
      for (const c of list) {
        expect(c).to.have.all.keys('id', 'campaignId', 'opportunityId', 'config', 'overrideTimestamp', 'Opportunity');
        expect(c['campaignId']).to.equal(campaignId.toLowerCase());
        expect(c['overrideTimestamp']).to.be.a('number');
        expect(c['Opportunity']).to.include({ id: c['opportunityId'], chainId: 31337, type: 'ERC20' });
        expect(c['Opportunity']).to.include.keys('identifier', 'name');
      }
      expect(list[0]!['Opportunity'].identifier).to.equal(targets.holdAddress);
      expect(list[0]!['overrideTimestamp']).to.be.at.most(list[1]!['overrideTimestamp']);
      const byComposite = (await h.request().get(`/v4/overrides/31337-${campaignId}/previous-configs/`).expect(200))
        .body;
      expect(byComposite).to.deep.equal(list);
    });

    it('is 404 for an unknown campaign and 400 for a malformed id', async () => {
      await h
        .request()
        .get(`/v4/overrides/31337-0x${'9'.repeat(64)}/previous-configs`)
        .expect(404);
      const bad = await h.request().get('/v4/overrides/nope/previous-configs').expect(400);
      expect(bad.body.errors.map((e: { field: string }) => e.field)).to.deep.equal(['id']);
    });
  });

  describe('check', () => {
    const oldConfig = () => ({
      rewardToken: '0x1111111111111111111111111111111111111111',
      amount: '1000',
      startTimestamp: String(now + DAY),
      endTimestamp: now + 2 * DAY,
    });

    it('answers { isValid, errors } per the override rules', async () => {
      const ok = await h
        .request()
        .post('/v4/overrides/check')
        .send({ oldConfig: oldConfig(), newConfig: { ...oldConfig(), endTimestamp: String(now + 3 * DAY) } })
        .expect(200);
      expect(ok.body, 'one shape (issue 31)').to.deep.equal({ isValid: true, errors: [] });
      const bad = await h
        .request()
        .post('/v4/overrides/check/')
        .send({ oldConfig: oldConfig(), newConfig: { ...oldConfig(), amount: 2000, endTimestamp: 1 } })
        .expect(200);
      expect(bad.body.isValid).to.equal(false);
      expect(bad.body.errors.map((e: { path: string }) => e.path)).to.deep.equal(['amount', 'endTimestamp']);
      expect(bad.body).to.have.all.keys('isValid', 'errors');
    });

    it('accepts the configs as JSON text in a form body', async () => {
      const res = await h
        .request()
        .post('/v4/overrides/check')
        .type('form')
        .send({
          oldConfig: JSON.stringify(oldConfig()),
          newConfig: JSON.stringify({ ...oldConfig(), rewardToken: '0x2222222222222222222222222222222222222222' }),
        })
        .expect(200);
      expect(res.body.errors.map((e: { path: string }) => e.path)).to.deep.equal(['rewardToken']);
    });

    it('400s naming unknown, missing or non-object fields', async () => {
      const res = await h.request().post('/v4/overrides/check').send({ oldConfig: oldConfig(), extra: 1 }).expect(400);
      expect(res.body.errors.map((e: { field: string }) => e.field).sort()).to.deep.equal(['extra', 'newConfig']);
      const notObject = await h
        .request()
        .post('/v4/overrides/check')
        .send({ oldConfig: 'x', newConfig: {} })
        .expect(400);
      expect(notObject.body.errors.map((e: { field: string }) => e.field)).to.deep.equal(['oldConfig']);
    });
  });
});
