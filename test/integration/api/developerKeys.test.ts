import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { flush } from '../../../api/usage/usageBuffer.js';
import { HARDHAT_TEST_KEYS } from '../../../contracts/clients.js';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { login, type Session } from './authFlow.js';

describe('developer API keys: /v4/developer/keys', function () {
  let h: Harness;
  let alice: Session;
  let bob: Session;

  before(async function () {
    h = await createHarness({ chainIds: [31337] });
    alice = await login(h, HARDHAT_TEST_KEYS[0]);
    bob = await login(h, HARDHAT_TEST_KEYS[1]);
  });
  after(async () => h?.close());

  const create = (s: Session, description: string) =>
    h.request().post('/v4/developer/keys/').set('Cookie', s.cookie).send({ description });

  it('creates a key: the record with rawKey once, stored only as sha-256 and prefix', async function () {
    const res = await create(alice, 'indexer').expect(200);
    expect(res.body).to.have.all.keys('id', 'prefix', 'description', 'revokedAt', 'createdAt', 'tier', 'rawKey');
    expect(res.body).to.include({ description: 'indexer', revokedAt: null, tier: 0 });
    expect(res.body.rawKey).to.match(/^rk_[A-Za-z0-9_-]{43}$/);
    expect(res.body.prefix).to.equal(res.body.rawKey.slice(0, 11));
    const { rows } = await h.deps.pg.query('SELECT key_hash, owner_address FROM api_keys WHERE id = $1', [res.body.id]);
    expect(rows[0]).to.deep.equal({
      key_hash: createHash('sha256').update(res.body.rawKey).digest('hex'),
      owner_address: alice.address,
    });
    const dump = JSON.stringify((await h.deps.pg.query('SELECT * FROM api_keys')).rows);
    expect(dump).not.to.include(res.body.rawKey);
    const list = await h.request().get('/v4/developer/keys/').set('Cookie', alice.cookie).expect(200);
    const { rawKey: _shownOnce, ...record } = res.body;
    expect(list.body.find((k: { id: string }) => k.id === res.body.id)).to.deep.equal(record);
    await h.request().get('/v4/developer/keys').set('Cookie', alice.cookie).expect(200);
  });

  it('accepts a 255-character description and refuses 0 and 256, naming description', async function () {
    await create(alice, 'd'.repeat(255)).expect(200);
    for (const description of ['', 'd'.repeat(256)]) {
      const res = await create(alice, description).expect(400);
      expect(res.body.errors.map((e: { field: string }) => e.field)).to.deep.equal(['description']);
    }
    const extra = await h
      .request()
      .post('/v4/developer/keys/')
      .set('Cookie', alice.cookie)
      .send({ description: 'x', tier: 2 })
      .expect(400);
    expect(extra.body.errors.map((e: { field: string }) => e.field)).to.deep.equal(['tier']);
  });

  it('accepts a body of exactly 64 KiB and refuses one byte more with 413', async function () {
    const json = JSON.stringify({ description: 'padded' });
    const atBound = `${json.slice(0, -1) + ' '.repeat(64 * 1024 - json.length)}}`;
    expect(Buffer.byteLength(atBound)).to.equal(65_536);
    await h
      .request()
      .post('/v4/developer/keys/')
      .set('Cookie', alice.cookie)
      .set('Content-Type', 'application/json')
      .send(atBound)
      .expect(200);
    const past = `${json.slice(0, -1) + ' '.repeat(64 * 1024 - json.length + 1)}}`;
    await h
      .request()
      .post('/v4/developer/keys/')
      .set('Cookie', alice.cookie)
      .set('Content-Type', 'application/json')
      .send(past)
      .expect(413);
  });

  it("patches the description, and 404s another user's key on every id route", async function () {
    const key = (await create(alice, 'before').expect(200)).body;
    const patched = await h
      .request()
      .patch(`/v4/developer/keys/${key.id}`)
      .set('Cookie', alice.cookie)
      .send({ description: 'after' })
      .expect(200);
    expect(patched.body).to.include({ id: key.id, description: 'after', revokedAt: null });
    expect(patched.body).not.to.have.property('rawKey');
    await h
      .request()
      .patch(`/v4/developer/keys/${key.id}`)
      .set('Cookie', bob.cookie)
      .send({ description: 'mine' })
      .expect(404);
    await h.request().delete(`/v4/developer/keys/${key.id}`).set('Cookie', bob.cookie).expect(404);
    await h.request().get(`/v4/developer/keys/${key.id}/usage`).set('Cookie', bob.cookie).expect(404);
    const bobs = await h.request().get('/v4/developer/keys/').set('Cookie', bob.cookie).expect(200);
    expect(bobs.body).to.deep.equal([]);
    const bad = await h
      .request()
      .patch('/v4/developer/keys/not-a-uuid')
      .set('Cookie', alice.cookie)
      .send({})
      .expect(400);
    expect(bad.body.errors[0].field).to.equal('id');
  });

  it('validates a key, revokes it (refused at once), and an API key alone cannot manage keys', async function () {
    const key = (await create(alice, 'to revoke').expect(200)).body;
    expect(
      (await h.request().get('/v4/api-keys/validate').set('x-api-key', key.rawKey).expect(200)).body,
    ).to.deep.equal({ ok: true });
    await h.request().get('/v4/developer/keys/').set('x-api-key', key.rawKey).expect(401);
    const revoked = await h.request().delete(`/v4/developer/keys/${key.id}`).set('Cookie', alice.cookie).expect(200);
    expect(Date.parse(revoked.body.revokedAt)).to.be.within(Date.now() - 60_000, Date.now() + 1000);
    await h.request().get('/v4/api-keys/validate').set('x-api-key', key.rawKey).expect(401);
    await h.request().get('/v4/api-keys/validate').expect(401);
    await h.request().get('/v4/chains').set('x-api-key', key.rawKey).expect(200); // passive on public routes
    const again = await h.request().delete(`/v4/developer/keys/${key.id}`).set('Cookie', alice.cookie).expect(200);
    expect(again.body.revokedAt).to.equal(revoked.body.revokedAt);
  });

  it('counts usage per key × route pattern × day after a flush, for the summary and the daily view', async function () {
    const key = (await create(bob, 'usage').expect(200)).body;
    const other = (await create(bob, 'idle').expect(200)).body;
    for (let i = 0; i < 3; i++) await h.request().get('/v4/chains').set('x-api-key', key.rawKey).expect(200);
    await h
      .request()
      .get(`/v4/auth/nonce/0x${'a'.repeat(40)}`)
      .set('x-api-key', key.rawKey)
      .expect(200);
    await h.request().get('/v4/api-keys/validate').set('x-api-key', key.rawKey).expect(200);
    // A route registered as `/` under a prefix is named by its template, never by a regex source.
    const listed = await h.request().get('/v4/developer/keys/').set('x-api-key', key.rawKey);
    await flush();
    const today = new Date().toISOString().slice(0, 10);
    const daily = await h.request().get(`/v4/developer/keys/${key.id}/usage`).set('Cookie', bob.cookie).expect(200);
    expect(daily.body).to.deep.equal(
      {
        daily: [
          {
            date: today,
            total: 6,
            endpoints: {
              'GET /v4/chains': 3,
              'GET /v4/auth/nonce/:address': 1,
              'GET /v4/api-keys/validate': 1,
              'GET /v4/developer/keys': 1,
            },
          },
        ],
      },
      `keys listing answered ${listed.status}`,
    );
    const summary = await h.request().get('/v4/developer/keys/usage?days=1').set('Cookie', bob.cookie).expect(200);
    expect(summary.body).to.deep.equal({
      totalCalls: 6,
      keys: [
        { id: key.id, prefix: key.prefix, description: 'usage', totalCalls: 6 },
        { id: other.id, prefix: other.prefix, description: 'idle', totalCalls: 0 },
      ],
    });
    await h.request().get('/v4/chains').set('x-api-key', key.rawKey).expect(200);
    await flush();
    const after = await h
      .request()
      .get(`/v4/developer/keys/${key.id}/usage?days=90`)
      .set('Cookie', bob.cookie)
      .expect(200);
    expect(after.body.daily[0].endpoints['GET /v4/chains']).to.equal(4);
  });

  it('adds no database round trip to the request path: a keyed request costs exactly its key lookup', async function () {
    const key = (await create(bob, 'round-trips').expect(200)).body;
    await flush();
    // Count every statement the API pool runs (pool.query and clients checked out for transactions).
    const statements: string[] = [];
    const pool = h.apiPg as unknown as {
      query: (...a: unknown[]) => unknown;
      connect: (...a: unknown[]) => Promise<{ query: (...a: unknown[]) => unknown }>;
    };
    const { query, connect } = pool;
    pool.query = function (this: unknown, ...args: unknown[]) {
      statements.push(String((args[0] as { text?: string }).text ?? args[0]));
      return query.apply(this, args);
    };
    pool.connect = function (this: unknown, ...args: unknown[]) {
      // pool.query checks a client out with a callback: that path is already counted above.
      if (typeof args[0] === 'function') return connect.apply(this, args);
      return connect.apply(this, args).then((client) => wrapClient(client));
    } as typeof connect;
    const wrapClient = (client: { query: (...a: unknown[]) => unknown }) => {
      const clientQuery = client.query;
      client.query = function (this: unknown, ...a: unknown[]) {
        statements.push(String((a[0] as { text?: string }).text ?? a[0]));
        return clientQuery.apply(this, a);
      };
      return client;
    };
    try {
      // /v4/enums reads no table: anonymous, it runs no statement at all.
      await h.request().get('/v4/enums').expect(200);
      expect(statements.splice(0)).to.deep.equal([]);
      for (let i = 0; i < 10; i++) await h.request().get('/v4/enums').set('x-api-key', key.rawKey).expect(200);
      expect(
        statements.filter((q) => /api_key_usage/.test(q)),
        'usage writes on the request path',
      ).to.deep.equal([]);
      // Tests run without the credential cache, so each keyed request adds exactly one statement: its key lookup.
      expect(statements.length).to.equal(10);
      await flush();
      expect(statements.filter((q) => /api_key_usage/.test(q)).length, 'one upsert for the whole buffer').to.equal(1);
    } finally {
      pool.query = query;
      pool.connect = connect;
    }
    const daily = await h.request().get(`/v4/developer/keys/${key.id}/usage`).set('Cookie', bob.cookie).expect(200);
    expect(daily.body.daily[0].endpoints['GET /v4/enums']).to.equal(10);
  });

  it('bounds days to 1..90', async function () {
    for (const days of [0, 91, 'x']) {
      const res = await h
        .request()
        .get(`/v4/developer/keys/usage?days=${days}`)
        .set('Cookie', alice.cookie)
        .expect(400);
      expect(res.body.errors[0].field).to.equal('days');
    }
    await h.request().get('/v4/developer/keys/usage?days=90').set('Cookie', alice.cookie).expect(200);
  });
});
