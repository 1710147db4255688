import { expect } from 'chai';
import { HARDHAT_TEST_KEYS } from '../../../contracts/clients.js';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { TEST_BACK_OFFICE_TOKEN } from '../../helpers/testConfig.js';
import { login, type Session } from './authFlow.js';

const BACK_OFFICE = { authorization: TEST_BACK_OFFICE_TOKEN };
const wallet = (i: number) => `0x${(i + 1).toString(16).padStart(40, '0')}`;
const campaignId = (i: number) => `0x${(i + 1).toString(16).padStart(64, '0')}`;
/** A valid WHITELIST value of exactly `length` characters (JSON allows trailing whitespace). */
const paddedValue = (length: number) => '{"label":"x"}'.padEnd(length, ' ');

describe('key-value stores: quotas, self-service stores, entries and their rules', function () {
  let h: Harness;
  let alice: Session;
  let bob: Session;
  let carol: Session;
  let aliceKey: string;
  let bobKey: string;

  const newKey = async (s: Session) =>
    (
      (await h.request().post('/v4/developer/keys/').set('Cookie', s.cookie).send({ description: 'kv' }).expect(200))
        .body as { rawKey: string }
    ).rawKey;
  const grant = (owner: string, extra: Record<string, unknown> = {}) =>
    h
      .request()
      .post('/v4/internal/key-value-stores/quotas')
      .set(BACK_OFFICE)
      .send({
        ownerAddress: owner,
        maxConfigs: 5,
        maxSizeLimit: 2000,
        allowedTypes: ['WHITELIST', 'BOOST', 'APR', 'REFERRER'],
        ...extra,
      });
  const createStore = (key: string, body: Record<string, unknown>) =>
    h.request().post('/v4/key-value-stores/self').set('x-api-key', key).send(body);

  before(async function () {
    h = await createHarness({ chainIds: [31337] });
    alice = await login(h, HARDHAT_TEST_KEYS[0]);
    bob = await login(h, HARDHAT_TEST_KEYS[1]);
    carol = await login(h, HARDHAT_TEST_KEYS[2]);
    aliceKey = await newKey(alice);
    bobKey = await newKey(bob);
  });
  after(async () => h?.close());

  describe('POST /v4/internal/key-value-stores/quotas (back office only)', function () {
    it('refuses no credential (401) and a wallet session or API key (403)', async function () {
      const body = { ownerAddress: alice.address, maxConfigs: 1, maxSizeLimit: 10, allowedTypes: ['WHITELIST'] };
      await h.request().post('/v4/internal/key-value-stores/quotas').send(body).expect(401);
      await h
        .request()
        .post('/v4/internal/key-value-stores/quotas')
        .set('authorization', 'not-the-back-office-token-at-all-000000')
        .send(body)
        .expect(401);
      await h.request().post('/v4/internal/key-value-stores/quotas').set('Cookie', alice.cookie).send(body).expect(403);
      await h.request().post('/v4/internal/key-value-stores/quotas').set('x-api-key', aliceKey).send(body).expect(403);
    });

    it('grants and replaces a quota, and answers the quota record', async function () {
      const first = await grant(alice.address, { maxConfigs: 1, maxSizeLimit: 1_000_000 }).expect(200);
      expect(first.body).to.include({ ownerAddress: alice.address, maxConfigs: 1, maxSizeLimit: 1_000_000 });
      expect(Object.keys(first.body).sort()).to.deep.equal([
        'allowedTypes',
        'createdAt',
        'maxConfigs',
        'maxSizeLimit',
        'ownerAddress',
        'updatedAt',
      ]);
      const second = await grant(alice.address.toUpperCase().replace('0X', '0x')).expect(200);
      expect(second.body.maxConfigs).to.equal(5);
      expect(second.body.createdAt).to.equal(first.body.createdAt);
    });

    it('rejects each bound one past it, naming the field', async function () {
      const cases: [Record<string, unknown>, string][] = [
        [{ maxConfigs: 0 }, 'maxConfigs'],
        [{ maxSizeLimit: 0 }, 'maxSizeLimit'],
        [{ maxSizeLimit: 1_000_001 }, 'maxSizeLimit'],
        [{ allowedTypes: [] }, 'allowedTypes'],
        [{ allowedTypes: ['NOPE'] }, 'allowedTypes.0'],
        [{ ownerAddress: '0x12' }, 'ownerAddress'],
      ];
      for (const [extra, field] of cases) {
        const res = await grant(bob.address, extra).expect(400);
        expect(
          res.body.errors.map((e: { field: string }) => e.field),
          JSON.stringify(extra),
        ).to.include(field);
      }
      // Numbers arrive as strings from forms.
      await h
        .request()
        .post('/v4/internal/key-value-stores/quotas')
        .set(BACK_OFFICE)
        .type('form')
        .send({ ownerAddress: bob.address, maxConfigs: '3', maxSizeLimit: '1000000', allowedTypes: 'WHITELIST' })
        .expect(200);
    });
  });

  describe('self-service stores', function () {
    it('refuses creation without a quota (403) and without an API key (401)', async function () {
      const carolKey = await newKey(await login(h, HARDHAT_TEST_KEYS[2]));
      await createStore(carolKey, { key: 'list', type: 'WHITELIST' }).expect(403);
      await h
        .request()
        .post('/v4/key-value-stores/self')
        .set('Cookie', alice.cookie)
        .send({ key: 'list', type: 'WHITELIST' })
        .expect(401);
    });

    it('creates a store under the owner-namespaced canonical key, with the quota as default size', async function () {
      const res = await createStore(aliceKey, {
        key: 'Allow_list-1',
        type: 'WHITELIST',
        description: 'd'.repeat(512),
      }).expect(200);
      expect(res.body).to.include({
        key: `${alice.address}:Allow_list-1`,
        type: 'WHITELIST',
        sizeLimit: 2000,
        publicRead: true,
        accessMode: 'API_KEY',
        ownerAddress: alice.address,
        entryCount: 0,
      });
      await createStore(aliceKey, { key: 'Allow_list-1', type: 'WHITELIST' }).expect(409);
      // The same suffix under another owner is another store.
      await grant(bob.address);
      expect((await createStore(bobKey, { key: 'Allow_list-1', type: 'WHITELIST' }).expect(200)).body.key).to.equal(
        `${bob.address}:Allow_list-1`,
      );
    });

    it('enforces the limits of key, description and sizeLimit, and the quota', async function () {
      const fieldsOf = (res: { body: { errors?: { field: string }[] } }) => (res.body.errors ?? []).map((e) => e.field);
      expect(fieldsOf(await createStore(aliceKey, { key: 'k'.repeat(129), type: 'WHITELIST' }).expect(400))).to.include(
        'key',
      );
      expect(fieldsOf(await createStore(aliceKey, { key: 'has space', type: 'WHITELIST' }).expect(400))).to.include(
        'key',
      );
      expect(
        fieldsOf(
          await createStore(aliceKey, { key: 'd513', type: 'WHITELIST', description: 'd'.repeat(513) }).expect(400),
        ),
      ).to.include('description');
      expect(
        fieldsOf(await createStore(aliceKey, { key: 's0', type: 'WHITELIST', sizeLimit: 0 }).expect(400)),
      ).to.include('sizeLimit');
      expect(
        fieldsOf(await createStore(aliceKey, { key: 's-big', type: 'WHITELIST', sizeLimit: 1_000_001 }).expect(400)),
      ).to.include('sizeLimit');
      // Issue 31: above the quota, sizeLimit is capped (as the spec says), and the answer says so.
      const capped = (await createStore(aliceKey, { key: 's-quota', type: 'WHITELIST', sizeLimit: 2001 }).expect(200))
        .body;
      expect(capped.sizeLimit).to.equal(2000);
      expect(capped.notices).to.deep.equal([
        { field: 'sizeLimit', message: '2001 is above your quota: capped at 2000' },
      ]);
      await h.request().delete(`/v4/key-value-stores/self/${capped.key}`).set('x-api-key', aliceKey).expect(200);
      expect(fieldsOf(await createStore(aliceKey, { key: 'fwd', type: 'FORWARDER' }).expect(403))).to.include('type');
      expect(fieldsOf(await createStore(aliceKey, { key: 'x', type: 'NOPE' }).expect(400))).to.include('type');
      const atBound = await createStore(aliceKey, {
        key: 'k'.repeat(128),
        type: 'BOOST',
        sizeLimit: '2000',
        publicRead: 'false',
      }).expect(200);
      expect(atBound.body).to.include({ sizeLimit: 2000, publicRead: false });
      expect(atBound.body).not.to.have.property('notices');
      await h.request().delete(`/v4/key-value-stores/self/${atBound.body.key}`).set('x-api-key', aliceKey).expect(200);
    });

    it('counts stores against maxConfigs', async function () {
      await grant(alice.address, { maxConfigs: 2 });
      await createStore(aliceKey, { key: 'second', type: 'BOOST' }).expect(200);
      const res = await createStore(aliceKey, { key: 'third', type: 'BOOST' }).expect(403);
      expect(res.body.detail).to.match(/2 stores/);
      await h
        .request()
        .delete(`/v4/key-value-stores/self/${alice.address}:second`)
        .set('x-api-key', aliceKey)
        .expect(200);
      await grant(alice.address);
    });

    it("lists and patches only the caller's stores", async function () {
      const list = await h.request().get('/v4/key-value-stores/self').set('x-api-key', aliceKey).expect(200);
      expect(list.body.map((s: { key: string }) => s.key)).to.deep.equal([`${alice.address}:Allow_list-1`]);
      const key = `${alice.address}:Allow_list-1`;
      const patched = await h
        .request()
        .patch(`/v4/key-value-stores/self/${key}`)
        .set('x-api-key', aliceKey)
        .send({ description: 'allow', publicRead: 'true' })
        .expect(200);
      expect(patched.body).to.include({ description: 'allow', publicRead: true, sizeLimit: 2000 });
      await h
        .request()
        .patch(`/v4/key-value-stores/self/${key}`)
        .set('x-api-key', bobKey)
        .send({ description: 'hijack' })
        .expect(404);
      const capped = await h
        .request()
        .patch(`/v4/key-value-stores/self/${key}`)
        .set('x-api-key', aliceKey)
        .send({ sizeLimit: 2001 })
        .expect(200);
      expect(capped.body.sizeLimit).to.equal(2000);
      expect(capped.body.notices[0]).to.deep.include({ field: 'sizeLimit' });
      await h
        .request()
        .patch(`/v4/key-value-stores/self/${key}`)
        .set('x-api-key', aliceKey)
        .send({ nope: 1 })
        .expect(400);
    });
  });

  describe('entries', function () {
    let store: string;
    let publicStore: string;

    before(async function () {
      store = (await createStore(aliceKey, { key: 'boosts', type: 'BOOST', sizeLimit: 10, publicRead: false })).body
        .key;
      publicStore = (await createStore(aliceKey, { key: 'referrers', type: 'REFERRER', accessMode: 'PUBLIC' })).body
        .key;
    });

    it('names the key to use when an entry is written with the short store key (issue 31)', async function () {
      const res = await h
        .request()
        .put('/v4/key-value-stores/boosts/entries')
        .set('x-api-key', aliceKey)
        .send({ address: wallet(1), value: '{"multiplier":1.5}' })
        .expect(400);
      expect(res.body.errors).to.have.length(1);
      expect(res.body.errors[0].field).to.equal('key');
      expect(res.body.errors[0].message).to.match(/^must be the store key returned at creation/);
      expect(res.body.detail).not.to.match(/pattern|\^/);
    });

    it("upserts with the owner's key or session and refuses others (403) and anonymous callers (401)", async function () {
      const entry = { address: wallet(1), value: '{"multiplier":1.5}' };
      const res = await h
        .request()
        .put(`/v4/key-value-stores/${store}/entries`)
        .set('x-api-key', aliceKey)
        .send(entry)
        .expect(200);
      expect(res.body).to.include({ address: wallet(1), value: entry.value });
      await h
        .request()
        .put(`/v4/key-value-stores/${store}/entries`)
        .set('Cookie', alice.cookie)
        .send({ ...entry, value: '{"multiplier":2}' })
        .expect(200);
      await h.request().put(`/v4/key-value-stores/${store}/entries`).set('x-api-key', bobKey).send(entry).expect(403);
      await h
        .request()
        .put(`/v4/key-value-stores/${store}/entries`)
        .set('Cookie', bob.cookie)
        .send({ ...entry, address: bob.address })
        .expect(403);
      await h.request().put(`/v4/key-value-stores/${store}/entries`).send(entry).expect(401);
      const one = await h
        .request()
        .get(`/v4/key-value-stores/${store}/entries/${wallet(1).toUpperCase().replace('0X', '0x')}`)
        .set('x-api-key', aliceKey)
        .expect(200);
      expect(one.body.value).to.equal('{"multiplier":2}');
    });

    it('lets a wallet write and delete only its own entry in a PUBLIC store', async function () {
      const mine = { address: bob.address, value: JSON.stringify({ referrer: alice.address }) };
      await h
        .request()
        .put(`/v4/key-value-stores/${publicStore}/entries`)
        .set('Cookie', bob.cookie)
        .send(mine)
        .expect(200);
      await h
        .request()
        .put(`/v4/key-value-stores/${publicStore}/entries`)
        .set('Cookie', bob.cookie)
        .send({ ...mine, address: wallet(7) })
        .expect(403);
      await h
        .request()
        .put(`/v4/key-value-stores/${publicStore}/entries`)
        .set('x-api-key', bobKey)
        .send(mine)
        .expect(403);
      await h
        .request()
        .put(`/v4/key-value-stores/${publicStore}/entries`)
        .set('x-api-key', aliceKey)
        .send({ ...mine, address: wallet(8) })
        .expect(200);
      await h
        .request()
        .delete(`/v4/key-value-stores/${publicStore}/entries/${wallet(8)}`)
        .set('Cookie', bob.cookie)
        .expect(403);
      await h
        .request()
        .delete(`/v4/key-value-stores/${publicStore}/entries/${bob.address}`)
        .set('Cookie', bob.cookie)
        .expect(200);
      await h
        .request()
        .delete(`/v4/key-value-stores/${publicStore}/entries/${bob.address}`)
        .set('Cookie', bob.cookie)
        .expect(404);
      await h
        .request()
        .delete(`/v4/key-value-stores/${publicStore}/entries/${wallet(8)}`)
        .set(BACK_OFFICE)
        .expect(200);
    });

    it('keeps an entry the owner wrote about a wallet in a PUBLIC store: the wallet can neither overwrite nor delete it', async function () {
      await grant(alice.address, { allowedTypes: ['WHITELIST', 'BOOST', 'APR', 'REFERRER', 'BLACKLIST'] }).expect(200);
      const banned = (
        await createStore(aliceKey, { key: 'banned', type: 'BLACKLIST', accessMode: 'PUBLIC' }).expect(200)
      ).body.key;
      const entries = `/v4/key-value-stores/${banned}/entries`;
      await h
        .request()
        .put(entries)
        .set('x-api-key', aliceKey)
        .send({ address: bob.address, value: '{"reason":"sybil"}' })
        .expect(200);
      const overwrite = await h
        .request()
        .put(entries)
        .set('Cookie', bob.cookie)
        .send({ address: bob.address, value: '{"reason":"none"}' })
        .expect(403);
      expect(overwrite.body.detail).to.match(/written by its owner/);
      await h.request().delete(`${entries}/${bob.address}`).set('Cookie', bob.cookie).expect(403);
      const kept = await h.request().get(`${entries}/${bob.address}`).expect(200);
      expect(kept.body).to.include({ value: '{"reason":"sybil"}' });
      // An entry the wallet wrote itself stays its own to change and delete; the owner may take it over.
      await h
        .request()
        .put(entries)
        .set('Cookie', carol.cookie)
        .send({ address: carol.address, value: '{"reason":"self"}' })
        .expect(200);
      await h
        .request()
        .put(entries)
        .set('Cookie', carol.cookie)
        .send({ address: carol.address, value: '{"reason":"again"}' })
        .expect(200);
      await h
        .request()
        .put(entries)
        .set('x-api-key', aliceKey)
        .send({ address: carol.address, value: '{"reason":"owner"}' })
        .expect(200);
      await h.request().delete(`${entries}/${carol.address}`).set('Cookie', carol.cookie).expect(403);
      await h.request().delete(`${entries}/${bob.address}`).set('x-api-key', aliceKey).expect(200);
      await h.request().delete(`/v4/key-value-stores/self/${banned}`).set('x-api-key', aliceKey).expect(200);
    });

    it('validates addresses and values by store type, naming the field', async function () {
      const put = (key: string, body: Record<string, unknown>) =>
        h.request().put(`/v4/key-value-stores/${key}/entries`).set('x-api-key', aliceKey).send(body);
      const field = async (key: string, body: Record<string, unknown>) =>
        (await put(key, body).expect(400)).body.errors as { field: string; message: string }[];
      expect((await field(store, { address: wallet(2), value: '{"multiplier":0}' }))[0]!.field).to.equal('value');
      expect((await field(store, { address: wallet(2), value: '{"factor":2}' }))[0]!.message).to.match(/BOOST/);
      expect((await field(store, { address: wallet(2), value: 'not json' }))[0]!.field).to.equal('value');
      expect((await field(store, { address: wallet(2), value: '{"multiplier":"2"}' }))[0]!.field).to.equal('value');
      expect((await field(store, { address: '0x1234', value: '{"multiplier":2}' }))[0]!.field).to.equal('address');
      expect((await field(store, { address: wallet(2) }))[0]!.field).to.equal('value');
      // 32-byte addresses are accepted; APR stores take only campaign ids.
      await put(store, { address: campaignId(2), value: '{"multiplier":3}' }).expect(200);
      const apr = (await createStore(aliceKey, { key: 'apr', type: 'APR' }).expect(200)).body.key;
      expect((await field(apr, { address: wallet(3), value: '{"apr":12.5}' }))[0]!.field).to.equal('address');
      await put(apr, { address: campaignId(3), value: '{"apr":12.5}' }).expect(200);
      // Value length: 1024 accepted, 1025 refused.
      const list = (await createStore(aliceKey, { key: 'long-values', type: 'WHITELIST' }).expect(200)).body.key;
      await put(list, { address: wallet(4), value: paddedValue(1024) }).expect(200);
      expect((await field(list, { address: wallet(4), value: paddedValue(1025) }))[0]!.field).to.equal('value');
      for (const key of [apr, list])
        await h.request().delete(`/v4/key-value-stores/self/${key}`).set('x-api-key', aliceKey).expect(200);
    });

    it('reads a private store only as its owner or the back office; a public one as anyone', async function () {
      await h.request().get(`/v4/key-value-stores/${store}/entries`).expect(401);
      await h.request().get(`/v4/key-value-stores/${store}/entries`).set('x-api-key', bobKey).expect(403);
      await h
        .request()
        .get(`/v4/key-value-stores/${store}/entries/${wallet(1)}`)
        .set('Cookie', bob.cookie)
        .expect(403);
      await h.request().get(`/v4/key-value-stores/${store}/entries`).set('Cookie', alice.cookie).expect(200);
      await h.request().get(`/v4/key-value-stores/${store}/entries`).set(BACK_OFFICE).expect(200);
      await h.request().get(`/v4/key-value-stores/${publicStore}/entries`).expect(200);
      await h.request().get(`/v4/key-value-stores/${alice.address}:missing/entries`).expect(404);
    });

    it('pages with page/pageSize (query or headers) and filters by exact value', async function () {
      const entries = Array.from({ length: 7 }, (_, i) => ({
        address: wallet(100 + i),
        value: JSON.stringify({ referrer: i % 2 ? alice.address : bob.address }),
      }));
      await h
        .request()
        .put(`/v4/key-value-stores/${publicStore}/entries/batch`)
        .set('x-api-key', aliceKey)
        .send({ entries })
        .expect(200);
      const all = await h.request().get(`/v4/key-value-stores/${publicStore}/entries`).expect(200);
      expect(all.body).to.include({ total: 7, page: 0, pageSize: 100 });
      const page1 = await h.request().get(`/v4/key-value-stores/${publicStore}/entries?page=1&pageSize=3`).expect(200);
      expect(page1.body.entries.map((e: { address: string }) => e.address)).to.deep.equal(
        all.body.entries.slice(3, 6).map((e: { address: string }) => e.address),
      );
      const byHeaders = await h
        .request()
        .get(`/v4/key-value-stores/${publicStore}/entries`)
        .set('page', '1')
        .set('pageSize', '3')
        .expect(200);
      expect(byHeaders.body).to.deep.equal(page1.body);
      const filtered = await h
        .request()
        .get(`/v4/key-value-stores/${publicStore}/entries`)
        .set('value', JSON.stringify({ referrer: alice.address }))
        .expect(200);
      expect(filtered.body.total).to.equal(3);
      await h.request().get(`/v4/key-value-stores/${publicStore}/entries?pageSize=0`).expect(400);
      await h.request().get(`/v4/key-value-stores/${publicStore}/entries?pageSize=1001`).expect(400);
      await h.request().get(`/v4/key-value-stores/${publicStore}/entries?pageSize=1000`).expect(200);
    });

    it('lists entries oldest first, as documented, not by address; an update keeps its place (#44)', async function () {
      const ordered = (await createStore(aliceKey, { key: 'ordered', type: 'WHITELIST', sizeLimit: 10 }).expect(200))
        .body.key;
      // Written one by one with addresses descending: address order would be the reverse.
      const written = [209, 208, 207].map((n) => wallet(n));
      for (const address of written)
        await h
          .request()
          .put(`/v4/key-value-stores/${ordered}/entries`)
          .set('x-api-key', aliceKey)
          .send({ address, value: '{}' })
          .expect(200);
      await h
        .request()
        .put(`/v4/key-value-stores/${ordered}/entries`)
        .set('x-api-key', aliceKey)
        .send({ address: written[0], value: '{}' })
        .expect(200);
      const list = async (q = '') =>
        (
          await h.request().get(`/v4/key-value-stores/${ordered}/entries${q}`).set('x-api-key', aliceKey).expect(200)
        ).body.entries.map((e: { address: string }) => e.address.toLowerCase());
      expect(await list()).to.deep.equal(written.map((a) => a.toLowerCase()));
      expect(await list('?page=1&pageSize=2')).to.deep.equal([written[2]!.toLowerCase()]);
    });

    it("batch-upserts 1 to 1000 entries with the owner's API key only, de-duplicated by address", async function () {
      const big = (await createStore(aliceKey, { key: 'big', type: 'WHITELIST', sizeLimit: 1001 }).expect(200)).body
        .key;
      const entries = (n: number, from = 0) =>
        Array.from({ length: n }, (_, i) => ({ address: wallet(1000 + from + i), value: '{}' }));
      const batch = (body: unknown, headers: Record<string, string> = { 'x-api-key': aliceKey }) =>
        h
          .request()
          .put(`/v4/key-value-stores/${big}/entries/batch`)
          .set(headers)
          .send(body as object);
      await batch({ entries: [] }).expect(400);
      await batch({ entries: entries(1001) }).expect(400);
      expect((await batch({ entries: entries(1000) }).expect(200)).body).to.deep.equal({ success: true, count: 1000 });
      // The largest batch there is (1000 values of 1024 characters, ≈ 1.1 MB) fits the body limit.
      const largest = entries(1000).map((e) => ({ ...e, value: paddedValue(1024) }));
      expect((await batch({ entries: largest }).expect(200)).body.count).to.equal(1000);
      await batch({ entries: entries(1) }, { Cookie: alice.cookie }).expect(401);
      await batch({ entries: entries(1) }, { 'x-api-key': bobKey }).expect(403);
      const dup = await batch({
        entries: [
          { address: wallet(5000), value: '{"label":"a"}' },
          { address: wallet(5000).toUpperCase().replace('0X', '0x'), value: '{"label":"b"}' },
        ],
      }).expect(200);
      expect(dup.body.count).to.equal(1);
      expect(
        (
          await h
            .request()
            .get(`/v4/key-value-stores/${big}/entries/${wallet(5000)}`)
            .expect(200)
        ).body.value,
      ).to.equal('{"label":"b"}');
      // A batch with one bad value lands not at all.
      const bad = await batch({
        entries: [
          { address: wallet(6000), value: '{}' },
          { address: wallet(6001), value: '[]' },
        ],
      }).expect(400);
      expect(bad.body.errors[0].field).to.equal('entries.1.value');
      await h
        .request()
        .get(`/v4/key-value-stores/${big}/entries/${wallet(6000)}`)
        .expect(404);
      await h.request().delete(`/v4/key-value-stores/self/${big}`).set('x-api-key', aliceKey).expect(200);
    });

    it('never lets racing batches pass sizeLimit: a batch that does not fit fails whole', async function () {
      const small = (await createStore(aliceKey, { key: 'race', type: 'WHITELIST', sizeLimit: 10 }).expect(200)).body
        .key;
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, b) =>
          h
            .request()
            .put(`/v4/key-value-stores/${small}/entries/batch`)
            .set('x-api-key', aliceKey)
            .send({
              entries: Array.from({ length: 3 }, (_, i) => ({ address: wallet(2000 + b * 10 + i), value: '{}' })),
            }),
        ),
      );
      const ok = results.filter((r) => r.status === 200).length;
      expect(
        results.every((r) => r.status === 200 || r.status === 409),
        results.map((r) => r.status).join(),
      ).to.equal(true);
      expect(ok).to.equal(3);
      const listing = await h.request().get(`/v4/key-value-stores/${small}/entries`).expect(200);
      expect(listing.body.total).to.equal(9);
      const [stored] = (
        await h.request().get('/v4/key-value-stores/self').set('x-api-key', aliceKey).expect(200)
      ).body.filter((s: { key: string }) => s.key === small);
      expect(stored.entryCount).to.equal(9);
      // Updating existing entries needs no room; one new entry still fits, the next does not.
      await h
        .request()
        .put(`/v4/key-value-stores/${small}/entries`)
        .set('x-api-key', aliceKey)
        .send({ address: listing.body.entries[0].address, value: '{"label":"u"}' })
        .expect(200);
      await h
        .request()
        .put(`/v4/key-value-stores/${small}/entries`)
        .set('x-api-key', aliceKey)
        .send({ address: wallet(3000), value: '{}' })
        .expect(200);
      const full = await h
        .request()
        .put(`/v4/key-value-stores/${small}/entries`)
        .set('x-api-key', aliceKey)
        .send({ address: wallet(3001), value: '{}' })
        .expect(409);
      expect(full.body).to.include({ code: 'STORE_FULL' });
      // sizeLimit cannot drop below what is stored.
      await h
        .request()
        .patch(`/v4/key-value-stores/self/${small}`)
        .set('x-api-key', aliceKey)
        .send({ sizeLimit: 9 })
        .expect(409);
      // Deleting the store deletes its entries.
      await h.request().delete(`/v4/key-value-stores/self/${small}`).set('x-api-key', aliceKey).expect(200);
      await h
        .request()
        .get(`/v4/key-value-stores/${small}/entries/${wallet(3000)}`)
        .expect(404);
      const { rows } = await h.apiPg.query('SELECT count(*)::int AS n FROM kv_entries WHERE store_key = $1', [small]);
      expect(rows[0].n).to.equal(0);
    });
  });
});
