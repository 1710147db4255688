import { expect } from 'chai';
import { hashConfig } from '../../../api/routes/config/canonicalJson.js';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { TEST_BACK_OFFICE_TOKEN } from '../../helpers/testConfig.js';

const CONFIG = {
  campaignType: 1,
  rewardToken: '0x1111111111111111111111111111111111111111',
  amount: '1000',
  campaignData: { targetToken: '0x2222222222222222222222222222222222222222', whitelist: [] },
};
const CAMPAIGN_ID = `0x${'ab'.repeat(32)}`;

describe('POST /v4/config/store, GET /v4/config/hash/{hash}', function () {
  let h: Harness;
  const associations = async () =>
    (
      await h.deps.pg.query<{ config_hash: string; distribution_chain_id: number; campaign_id: string }>(
        'SELECT config_hash, distribution_chain_id, campaign_id FROM campaign_config_associations ORDER BY campaign_id',
      )
    ).rows;

  before(async function () {
    this.timeout(300_000);
    h = await createHarness({ chainIds: [31337] });
  });
  after(async () => h?.close());

  it('stores a configuration under the hash of its canonical JSON, the same hash whatever the key order', async () => {
    const first = await h.request().post('/v4/config/store').send(CONFIG).expect(200);
    expect(first.body).to.deep.equal({ hash: hashConfig(CONFIG) });
    const reordered = JSON.parse(
      JSON.stringify({
        campaignData: { whitelist: [], targetToken: CONFIG.campaignData.targetToken },
        amount: '1000',
        rewardToken: CONFIG.rewardToken,
        campaignType: 1,
      }),
    );
    const again = await h.request().post('/v4/config/store/').send(reordered).expect(200);
    expect(again.body.hash).to.equal(first.body.hash);
    const { rows } = await h.deps.pg.query('SELECT hash FROM campaign_configs');
    expect(rows).to.deep.equal([{ hash: first.body.hash }]);
  });

  it('serves the stored configuration by hash, with or without a trailing slash; 404 when unknown', async () => {
    const { hash } = (await h.request().post('/v4/config/store').send(CONFIG).expect(200)).body as { hash: string };
    expect((await h.request().get(`/v4/config/hash/${hash}`).expect(200)).body).to.deep.equal(CONFIG);
    expect(
      (
        await h
          .request()
          .get(`/v4/config/hash/${hash.toUpperCase().replace('0X', '0x')}/`)
          .expect(200)
      ).body,
    ).to.deep.equal(CONFIG);
    const missing = await h
      .request()
      .get(`/v4/config/hash/0x${'0'.repeat(64)}`)
      .expect(404);
    expect(missing.body.status).to.equal(404);
  });

  it('says whether it attached on every answer to an attach request, readable cross-origin and documented (#44)', async () => {
    const { hash } = (await h.request().post('/v4/config/store').send(CONFIG).expect(200)).body as { hash: string };
    const res = await h
      .request()
      .get(`/v4/config/hash/${hash}`)
      .query({ campaignId: CAMPAIGN_ID, distributionChainId: '31337' })
      .set('Origin', 'https://integrator.example')
      .expect(200);
    expect(res.headers['x-config-association']).to.match(/^not-attached; reason="/);
    const exposed = String(res.headers['access-control-expose-headers']).toLowerCase().split(/,\s*/);
    expect(exposed, 'a page on another origin can read it').to.include('x-config-association');
    const unknown = await h
      .request()
      .get(`/v4/config/hash/0x${'ab'.repeat(32)}`)
      .query({ campaignId: CAMPAIGN_ID, distributionChainId: '31337' })
      .expect(404);
    expect(unknown.headers['x-config-association']).to.equal(
      'not-attached; reason="no configuration is stored under this hash"',
    );
    const doc = (await h.request().get('/v4/openapi.json').expect(200)).body;
    expect(doc.paths['/v4/config/hash/{hash}'].get.responses['200'].headers).to.have.property('X-Config-Association');
  });

  it('attaches nothing for a campaign that is not indexed, and says so in x-config-association', async () => {
    const { hash } = (await h.request().post('/v4/config/store').send(CONFIG).expect(200)).body as { hash: string };
    const plain = await h.request().get(`/v4/config/hash/${hash}`).expect(200);
    expect(plain.headers['x-config-association']).to.equal(undefined);
    const res = await h
      .request()
      .get(`/v4/config/hash/${hash}`)
      .query({ campaignId: CAMPAIGN_ID.toUpperCase().replace('0X', '0x'), distributionChainId: '31337' })
      .set('authorization', TEST_BACK_OFFICE_TOKEN)
      .expect(200);
    expect(res.body).to.deep.equal(CONFIG);
    expect(res.headers['x-config-association']).to.equal(
      'not-attached; reason="no such campaign is indexed on that chain"',
    );
    expect(await associations()).to.deep.equal([]);
  });

  it('refuses half an association, a malformed hash and an unknown hash without writing', async () => {
    const { hash } = (await h.request().post('/v4/config/store').send(CONFIG).expect(200)).body as { hash: string };
    const before = await associations();
    const half = await h.request().get(`/v4/config/hash/${hash}`).query({ campaignId: CAMPAIGN_ID }).expect(400);
    expect(half.body.errors.map((e: { field: string }) => e.field)).to.deep.equal(['distributionChainId']);
    const bad = await h.request().get('/v4/config/hash/0x1234').expect(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field)).to.deep.equal(['hash']);
    await h
      .request()
      .get(`/v4/config/hash/0x${'1'.repeat(64)}`)
      .query({ campaignId: CAMPAIGN_ID, distributionChainId: 31337 })
      .expect(404);
    expect(await associations()).to.deep.equal(before);
  });

  it('refuses an empty body (400) and a configuration over 16,384 bytes (413), naming the body', async () => {
    const empty = await h.request().post('/v4/config/store').send({}).expect(400);
    expect(empty.body.errors).to.deep.equal([{ field: 'body', message: 'must be a non-empty configuration object' }]);
    const big = await h
      .request()
      .post('/v4/config/store')
      .send({ blob: 'x'.repeat(16_384) })
      .expect(413);
    expect(big.body.errors[0].field).to.equal('body');
    const fits = { blob: 'x'.repeat(16_384 - '{"blob":""}'.length) };
    await h.request().post('/v4/config/store').send(fits).expect(200);
  });

  it('accepts a form-encoded configuration (values as strings)', async () => {
    const res = await h
      .request()
      .post('/v4/config/store')
      .type('form')
      .send({ rewardToken: CONFIG.rewardToken, amount: '5' })
      .expect(200);
    expect((await h.request().get(`/v4/config/hash/${res.body.hash}`).expect(200)).body).to.deep.equal({
      rewardToken: CONFIG.rewardToken,
      amount: '5',
    });
  });
});
