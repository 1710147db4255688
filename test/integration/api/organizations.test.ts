import { expect } from 'chai';
import { HARDHAT_TEST_KEYS } from '../../../contracts/clients.js';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { login, type Session } from './authFlow.js';

describe('POST /v4/organizations', function () {
  let h: Harness;
  let alice: Session;

  before(async function () {
    h = await createHarness({ chainIds: [31337] });
    alice = await login(h, HARDHAT_TEST_KEYS[0]);
  });
  after(async () => h?.close());

  it('needs a credential (401 without, 401 for a malformed one)', async function () {
    await h.request().post('/v4/organizations').send({ name: 'acme' }).expect(401);
    await h.request().post('/v4/organizations').set('Cookie', 'jwt=nope').send({ name: 'acme' }).expect(401);
  });

  it('accepts a name of 1 and of 128 characters and refuses 0 and 129, naming the field', async function () {
    for (const name of ['a', 'n'.repeat(128)]) {
      const res = await h.request().post('/v4/organizations').set('Cookie', alice.cookie).send({ name }).expect(200);
      expect(res.body).to.include({ name, ownerAddress: alice.address });
      expect(res.body.id).to.match(/^[0-9a-f-]{36}$/);
    }
    for (const body of [{ name: '' }, { name: 'n'.repeat(129) }, {}, { name: 'ok', extra: 1 }]) {
      const res = await h.request().post('/v4/organizations').set('Cookie', alice.cookie).send(body).expect(400);
      expect(res.body.errors.map((e: { field: string }) => e.field).join(), JSON.stringify(body)).to.match(
        /name|extra/,
      );
    }
  });

  it("takes form bodies, refuses a name the owner already uses (any case) and lists the owner's", async function () {
    await h
      .request()
      .post('/v4/organizations')
      .set('Cookie', alice.cookie)
      .type('form')
      .send({ name: 'Acme Labs' })
      .expect(200);
    await h.request().post('/v4/organizations').set('Cookie', alice.cookie).send({ name: 'ACME LABS' }).expect(409);
    const bob = await login(h, HARDHAT_TEST_KEYS[1]);
    await h.request().post('/v4/organizations').set('Cookie', bob.cookie).send({ name: 'Acme Labs' }).expect(200);
    const mine = await h.request().get('/v4/organizations').set('Cookie', alice.cookie).expect(200);
    expect(mine.body.map((o: { name: string }) => o.name)).to.deep.equal(['a', 'n'.repeat(128), 'Acme Labs']);
  });
});
