import { expect } from 'chai';
import { createHarness, type Harness } from '../../helpers/harness.js';

describe('/v4/enums', function () {
  let h: Harness;

  before(async function () {
    this.timeout(300_000);
    h = await createHarness({ chainIds: [31337] });
  });

  after(async () => h?.close());

  it('lists every enum, with and without trailing slash', async () => {
    for (const path of ['/v4/enums', '/v4/enums/']) {
      const res = await h.request().get(path).expect(200);
      expect(res.body.enums).to.deep.include({ name: 'CampaignType', type: 'number', hasMetadata: false });
      expect(res.body.enums.map((e: { name: string }) => e.name)).to.include.members([
        'DistributionType',
        'OpportunityAction',
        'OpportunityStatus',
        'CampaignStatus',
        'RunStatus',
        'TokenType',
        'StoreType',
        'ExplorerType',
      ]);
    }
  });

  it("returns an enum's entries by name (any case), 404 for an unknown one and 400 for a malformed one", async () => {
    const res = await h.request().get('/v4/enums/campaignType/').expect(200);
    expect(res.body).to.include({ name: 'CampaignType', type: 'number' });
    expect(res.body.entries).to.deep.include({ key: 'ERC20REBASELOGPROCESSOR', value: 18 });
    const status = await h.request().get('/v4/enums/CampaignStatus').expect(200);
    expect(status.body.entries.map((e: { key: string }) => e.key)).to.deep.equal(['LIVE', 'PAST', 'SOON']);
    const missing = await h.request().get('/v4/enums/NoSuchEnum').expect(404);
    expect(missing.body.detail).to.contain('NoSuchEnum');
    const malformed = await h.request().get('/v4/enums/9bad').expect(400);
    expect(malformed.body.errors[0].field).to.equal('enumName');
  });

  it('converts one value both ways and 404s naming an unknown value', async () => {
    expect((await h.request().get('/v4/enums/CampaignType/convert/18').expect(200)).body).to.deep.equal({
      input: '18',
      output: 'ERC20REBASELOGPROCESSOR',
    });
    expect((await h.request().get('/v4/enums/CampaignType/convert/clamm/').expect(200)).body).to.deep.equal({
      input: 'clamm',
      output: 2,
    });
    const unknown = await h.request().get('/v4/enums/CampaignType/convert/999').expect(404);
    expect(unknown.body.detail).to.contain('999');
    await h.request().get('/v4/enums/Nope/convert/1').expect(404);
  });

  it('batch-converts 1–1000 values, rejecting empty, oversized and malformed bodies', async () => {
    const res = await h
      .request()
      .post('/v4/enums/CampaignType/batch-convert')
      .send({ values: [1, 'CLAMM', '3'] })
      .expect(200);
    expect(res.body).to.deep.equal({
      results: [
        { input: 1, output: 'ERC20' },
        { input: 'CLAMM', output: 2 },
        { input: '3', output: 'ERC20_SNAPSHOT' },
      ],
    });
    await h
      .request()
      .post('/v4/enums/TokenType/batch-convert/')
      .send({ values: ['point'] })
      .expect(200);
    const empty = await h.request().post('/v4/enums/CampaignType/batch-convert').send({ values: [] }).expect(400);
    expect(empty.body.errors[0].field).to.equal('values');
    const big = await h
      .request()
      .post('/v4/enums/CampaignType/batch-convert')
      .send({ values: Array.from({ length: 1001 }, () => 1) })
      .expect(400);
    expect(big.body.errors[0].field).to.equal('values');
    const missing = await h.request().post('/v4/enums/CampaignType/batch-convert').send({}).expect(400);
    expect(missing.body.errors[0].field).to.equal('values');
    const unknown = await h
      .request()
      .post('/v4/enums/CampaignType/batch-convert')
      .send({ values: [1, 'NOPE'] })
      .expect(404);
    expect(unknown.body.detail).to.contain('NOPE');
  });
});
