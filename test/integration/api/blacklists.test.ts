import { expect } from 'chai';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { TEST_BACK_OFFICE_TOKEN } from '../../helpers/testConfig.js';

const BO = { authorization: TEST_BACK_OFFICE_TOKEN };
const CHAIN_ID = 31337;
const ALICE = `0x${'a7'.repeat(20)}`;
const BOB = `0x${'b7'.repeat(20)}`;
const POOL = `0x${'9c'.repeat(20)}`;
const ZERO = `0x${'0'.repeat(40)}`;

type Entry = {
  id: string;
  chainId: number;
  poolAddress: string;
  userAddress: string;
  arrestTimestamp: string;
  arrestDetails: { reason?: string };
};

/**
 * /v4/blacklists against the real database: back-office writes (refused without the token, audit-logged in their
 * transaction), the public list, mapping and check, and the flag on the wallet's profile.
 */
describe('/v4/blacklists: back-office writes, public reads, the wallet flag', function () {
  let h: Harness;
  const list = async (query: Record<string, string | number> = {}) =>
    (await h.request().get('/v4/blacklists').query(query).expect(200)).body as Entry[];
  const check = async (address: string, query: Record<string, number> = {}) =>
    (await h.request().get(`/v4/blacklists/check/${address}`).query(query).expect(200)).body as boolean;
  const audit = async () =>
    (
      await h.deps.pg.query(
        "SELECT actor, action, entity_id, before, after FROM back_office_audit WHERE entity = 'blacklist' ORDER BY id",
      )
    ).rows;

  before(async function () {
    h = await createHarness({ chainIds: [CHAIN_ID] });
  });
  after(async () => h?.close());

  it('refuses writes without the back-office token and changes nothing', async () => {
    await h.request().post('/v4/blacklists').send({ chainId: CHAIN_ID, userAddress: ALICE }).expect(401);
    await h
      .request()
      .post('/v4/blacklists')
      .set({ authorization: 'Bearer nope' })
      .send({ chainId: CHAIN_ID, userAddress: ALICE })
      .expect(401);
    await h.request().delete(`/v4/blacklists/user/${ALICE}`).expect(401);
    expect(await list()).to.deep.equal([]);
    expect(await audit()).to.deep.equal([]);
  });

  it('adds entries (audit-logged), lists them newest first, maps and checks them, flags the wallet', async () => {
    const added = await h
      .request()
      .post('/v4/blacklists')
      .set({ ...BO, 'x-audit-actor': 'ops@example.org' })
      .send({
        chainId: CHAIN_ID,
        userAddress: ALICE.toUpperCase().replace('0X', '0x'),
        poolAddress: POOL,
        reason: 'sybil',
      })
      .expect(200);
    const a = added.body as Entry;
    expect(a).to.include({ chainId: CHAIN_ID, userAddress: ALICE, poolAddress: POOL });
    expect(a.arrestDetails).to.deep.equal({ reason: 'sybil' });
    expect(Math.abs(Number(a.arrestTimestamp) - Date.now() / 1000)).to.be.below(60);
    const b = (
      await h.request().post('/v4/blacklists/').set(BO).send({ chainId: CHAIN_ID, userAddress: BOB }).expect(200)
    ).body as Entry;
    expect(b).to.include({ userAddress: BOB, poolAddress: ZERO });
    expect(b.arrestDetails).to.deep.equal({});
    // Bob was added in the same second or later: newest first, then by id.
    const all = await list();
    expect(all).to.have.length(2);
    expect(all.map((e) => e.id).sort()).to.deep.equal([a.id, b.id].sort());
    expect(Number(all[0]!.arrestTimestamp)).to.be.at.least(Number(all[1]!.arrestTimestamp));
    expect(await list({ chainId: CHAIN_ID, items: 1, page: 1 })).to.deep.equal([all[1]]);
    expect(await list({ chainId: 1 })).to.deep.equal([]);
    expect((await h.request().get('/v4/blacklists/mapping').expect(200)).body).to.deep.equal({
      [ALICE]: true,
      [BOB]: true,
    });
    expect(await check(ALICE)).to.equal(true);
    expect(await check(ALICE, { chainId: CHAIN_ID })).to.equal(true);
    expect(await check(ALICE, { chainId: 1 })).to.equal(false);
    expect(await check(`0x${'cc'.repeat(20)}`)).to.equal(false);
    const profile = (await h.request().get(`/v4/users/${ALICE}`).expect(200)).body as { blacklistedChainIds: number[] };
    expect(profile.blacklistedChainIds).to.deep.equal([CHAIN_ID]);

    // The same chain, user and pool again: one entry, its reason replaced, recorded as an update.
    const again = (
      await h
        .request()
        .post('/v4/blacklists')
        .set(BO)
        .send({ chainId: CHAIN_ID, userAddress: ALICE, poolAddress: POOL, reason: 'sybil ring' })
        .expect(200)
    ).body as Entry;
    expect(again.id).to.equal(a.id);
    expect(await list()).to.have.length(2);
    const rows = await audit();
    expect(rows.map((r) => [r.actor, r.action, r.entity_id])).to.deep.equal([
      ['back-office:ops@example.org', 'create', a.id],
      ['back-office', 'create', b.id],
      ['back-office', 'update', a.id],
    ]);
    expect(rows[0].before).to.equal(null);
    expect(rows[0].after).to.deep.equal(a);
    expect(rows[2].before).to.deep.equal(a);
    expect(rows[2].after).to.deep.equal(again);
  });

  it('removes every entry of an address (audit-logged) and answers false when there was none', async () => {
    const before = (await list()).find((e) => e.userAddress === ALICE)!;
    expect((await h.request().delete(`/v4/blacklists/user/${ALICE}`).set(BO).expect(200)).body).to.equal(true);
    expect((await h.request().delete(`/v4/blacklists/user/${ALICE}/`).set(BO).expect(200)).body).to.equal(false);
    expect(await check(ALICE)).to.equal(false);
    expect((await list()).map((e) => e.userAddress)).to.deep.equal([BOB]);
    expect(
      ((await h.request().get(`/v4/users/${ALICE}`).expect(200)).body as { blacklistedChainIds: number[] })
        .blacklistedChainIds,
    ).to.deep.equal([]);
    const last = (await audit()).at(-1);
    expect(last).to.deep.include({ action: 'delete', entity_id: before.id, after: null });
    expect(last.before).to.deep.equal(before);
    expect(await audit()).to.have.length(4);
  });

  it('refuses bad input with a problem naming the field', async () => {
    const names = async (res: { body: unknown }, field: string) => expect(JSON.stringify(res.body)).to.include(field);
    await names(
      await h.request().post('/v4/blacklists').set(BO).send({ chainId: CHAIN_ID, userAddress: '0x12' }).expect(400),
      'userAddress',
    );
    await names(
      await h.request().post('/v4/blacklists').set(BO).send({ chainId: 999999, userAddress: ALICE }).expect(400),
      'chainId',
    );
    await names(await h.request().post('/v4/blacklists').set(BO).send({ userAddress: ALICE }).expect(400), 'chainId');
    await names(
      await h
        .request()
        .post('/v4/blacklists')
        .set(BO)
        .send({ chainId: CHAIN_ID, userAddress: ALICE, poolAddress: 'x' })
        .expect(400),
      'poolAddress',
    );
    await names(await h.request().get('/v4/blacklists/check/0xnope').expect(400), 'address');
    await names(await h.request().get('/v4/blacklists').query({ items: 1000 }).expect(400), 'items');
    expect(await audit()).to.have.length(4);
  });
});
