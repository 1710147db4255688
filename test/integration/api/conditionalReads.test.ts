import { expect } from 'chai';
import { HARDHAT_TEST_KEYS } from '../../../contracts/clients.js';
import { login } from './authFlow.js';
import { createReferenceDemo, type ReferenceDemo } from './referenceDemo.js';

/** A demo recipient with rewards in the live root and claims (scripts/seedDemo.ts). */
const RECIPIENT = '0x14dc79964da2c08b23698b3d3cc7ca32193d9955';

/**
 * Item 4 of issue #21: integrators polling user rewards and claims (with their API key, so the
 * answers are `private, no-store`) revalidate with If-None-Match and get a bodiless 304 until the
 * data changes; claim lists also carry Last-Modified (the newest claim's block time).
 */
describe('conditional reads for polling integrators: user rewards and claims', function () {
  let demo: ReferenceDemo;
  let apiKey: string;
  const request = () => demo.h.request();

  before(async function () {
    demo = await createReferenceDemo();
    const alice = await login(demo.h, HARDHAT_TEST_KEYS[0]);
    apiKey = (
      await request().post('/v4/developer/keys').set('Cookie', alice.cookie).send({ description: 'poller' }).expect(200)
    ).body.rawKey;
  });

  after(async () => demo?.close());

  const READS = [
    `/v4/users/${RECIPIENT}/rewards?chainId=31337&breakdownPage=0`,
    `/v4/users/${RECIPIENT}/rewards/breakdowns?chainIds=31337`,
    '/v4/claims?chainId=31337',
    `/v4/claims/history/${RECIPIENT}`,
    '/v4/claims/latest?chainIds=31337',
    '/v4/claims/count?chainId=31337',
  ];

  for (const path of READS) {
    it(`${path.replace(/\?.*/, '')}: with an API key private, no-store, ETag, 304 without a body on If-None-Match; a changed tag gets the body`, async function () {
      const first = await request().get(path).set('x-api-key', apiKey).expect(200);
      expect(first.headers['cache-control']).to.equal('private, no-store');
      expect(first.headers['etag']).to.match(/^W\/"[^"]+"$/);
      const again = await request()
        .get(path)
        .set('x-api-key', apiKey)
        .set('If-None-Match', first.headers['etag']!)
        .expect(304);
      expect(again.text ?? '').to.equal('');
      expect(again.headers['etag']).to.equal(first.headers['etag']);
      const other = await request()
        .get(path)
        .set('x-api-key', apiKey)
        .set('If-None-Match', 'W/"something-else"')
        .expect(200);
      expect(other.body).to.deep.equal(first.body);
      // Without credentials the same read is public (CDN-cacheable) and revalidates the same way.
      const anonymous = await request().get(path).set('If-None-Match', first.headers['etag']!).expect(304);
      expect(anonymous.headers['cache-control']).to.match(/^public/);
    });
  }

  it('user rewards: a new claim changes the ETag (the 304 never hides a change)', async function () {
    const path = `/v4/users/${RECIPIENT}/rewards?chainId=31337&breakdownPage=0`;
    const before = await request().get(path).set('x-api-key', apiKey).expect(200);
    // A claim recorded for the recipient changes its claimed/pending amounts.
    const reward = (
      before.body as { rewards: { token: { address: string }; claimed: string; pending: string }[] }[]
    )[0]!.rewards.find((r) => BigInt(r.pending) > 0n);
    expect(reward, 'a reward with something pending').to.not.equal(undefined);
    await demo.h.deps.pg.query(
      `INSERT INTO claims (chain_id, recipient, token, amount, block_number, block_hash, tx_hash, log_index, timestamp)
       SELECT 31337, $1, $2, 1, max(number) + 1, '0x' || repeat('d', 64), '0x' || repeat('e', 64), 0, max(timestamp) + 1 FROM blocks WHERE chain_id = 31337`,
      [RECIPIENT, reward!.token.address.toLowerCase()],
    );
    const after = await request()
      .get(path)
      .set('x-api-key', apiKey)
      .set('If-None-Match', before.headers['etag']!)
      .expect(200);
    expect(after.headers['etag']).not.to.equal(before.headers['etag']);
  });

  it("claims: Last-Modified is the newest answered claim's block time; If-Modified-Since at or after it is a 304, before it a 200", async function () {
    const claimer = ((await request().get('/v4/claims?chainId=31337').expect(200)).body as { recipient: string }[])[0]!
      .recipient;
    for (const path of ['/v4/claims?chainId=31337', `/v4/claims/history/${claimer}`]) {
      const res = await request().get(path).set('x-api-key', apiKey).expect(200);
      const newest = Math.max(...(res.body as { timestamp: number }[]).map((c) => c.timestamp));
      expect(res.headers['last-modified'], path).to.equal(new Date(newest * 1000).toUTCString());
      await request()
        .get(path)
        .set('x-api-key', apiKey)
        .set('If-Modified-Since', res.headers['last-modified']!)
        .expect(304);
      await request()
        .get(path)
        .set('x-api-key', apiKey)
        .set('If-Modified-Since', new Date((newest - 1) * 1000).toUTCString())
        .expect(200);
    }
    const none = await request().get('/v4/claims/history/0x0000000000000000000000000000000000000001').expect(200);
    expect(none.body).to.deep.equal([]);
    expect(none.headers['last-modified'], 'no claim, no natural time').to.equal(undefined);
  });
});
