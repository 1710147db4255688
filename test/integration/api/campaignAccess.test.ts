import { expect } from 'chai';
import { signSession } from '../../../api/identity/jwt.js';
import { seedCampaigns, seedCampaignsSpec, X, Y, type SeedCampaign } from '../../fixtures/api/campaigns/seed.js';
import { storeRewardRows } from '../../helpers/rewardRows.js';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { TEST_BACK_OFFICE_TOKEN } from '../../helpers/testConfig.js';

const Z = `0x${'c3'.repeat(20)}`;
const W = `0x${'d4'.repeat(20)}`;
const BACK_OFFICE = { authorization: TEST_BACK_OFFICE_TOKEN };

describe('private campaigns: privacy toggle, access grants and showPrivate reads', function () {
  let h: Harness;
  let s: Record<string, SeedCampaign>;
  const id = (k: string) => s[k]!.id;
  const as = (address: string) => ({
    Cookie: `jwt=${signSession({ secret: h.config.jwtSecret, address, tier: 0 }).token}`,
  });
  const idsOf = (body: { id: string }[]) => body.map((c) => c.id);
  const listIds = async (headers: Record<string, string> = {}, showPrivate = true) =>
    idsOf(
      (
        await h
          .request()
          .get(`/v4/campaigns?items=100&test=true${showPrivate ? '&showPrivate=true' : ''}`)
          .set(headers)
          .expect(200)
      ).body,
    );
  const byId = (key: string, headers: Record<string, string> = {}) =>
    h
      .request()
      .get(`/v4/campaigns/${id(key)}?showPrivate=true`)
      .set(headers);

  before(async function () {
    h = await createHarness({ chainIds: [31337] });
    s = seedCampaignsSpec(Math.floor(Date.now() / 1000));
    await seedCampaigns(h, s);
    // W received rewards of c1 in a tree (a recipient may view a private campaign by default).
    const root = `0x${'ee'.repeat(32)}`;
    await h.deps.pg.query(
      "INSERT INTO roots (chain_id, root, ipfs_hash, end_of_dispute_period, block_number, block_hash, tx_hash, log_index, timestamp) VALUES (31337, $1, 'bafy', 0, 1, $1, $1, 0, 1)",
      [root],
    );
    await h.deps.pg.query("INSERT INTO reward_trees (chain_id, root, status) VALUES (31337, $1, 'verified')", [root]);
    await storeRewardRows(h.deps.pg, { chainId: 31337, root, rows: [[W, s['c1']!.onChainId, '0xtoken', 5]] });
  });
  after(async () => h?.close());

  it('serves a private campaign only with showPrivate=true to its creator, its API keys and the back office', async function () {
    await h
      .request()
      .get(`/v4/campaigns/${id('c6')}`)
      .set(as(X))
      .expect(404);
    await byId('c6').expect(404);
    await byId('c6', as(Y)).expect(404);
    const own = await byId('c6', as(X)).expect(200);
    expect(own.body).to.include({ id: id('c6'), isPrivate: true });
    expect(own.headers['cache-control']).to.equal('private, no-store');
    await byId('c6', BACK_OFFICE).expect(200);
    const { rawKey } = (await h.request().post('/v4/developer/keys/').set(as(X)).send({ description: 'x' }).expect(200))
      .body;
    await byId('c6', { 'x-api-key': rawKey }).expect(200);
    expect(await listIds(as(X))).to.include(id('c6'));
    expect(await listIds(as(X), false)).to.not.include(id('c6'));
    expect(await listIds(as(Y))).to.not.include(id('c6'));
    expect(await listIds()).to.not.include(id('c6'));
    expect(await listIds(BACK_OFFICE)).to.include(id('c6'));
  });

  it('applies the same rule to GraphQL: campaign(showPrivate) and campaigns(filter: { showPrivate })', async function () {
    const gql = async (query: string, headers: Record<string, string> = {}) => {
      const res = await h
        .request()
        .post('/graphql/v1')
        .set(headers)
        .set('accept', 'application/json')
        .send({ query })
        .expect(200);
      expect(res.body.errors, JSON.stringify(res.body.errors)).to.equal(undefined);
      return res.body.data;
    };
    const one = `{ campaign(id: "${id('c6')}", showPrivate: true) { id } }`;
    expect((await gql(one)).campaign).to.equal(null);
    expect((await gql(one, as(Y))).campaign).to.equal(null);
    expect((await gql(one, as(X))).campaign).to.deep.equal({ id: id('c6') });
    expect((await gql(`{ campaign(id: "${id('c6')}") { id } }`, as(X))).campaign, 'without showPrivate').to.equal(null);
    const list = `{ campaigns(filter: { showPrivate: true, test: true }, items: 100) { id } }`;
    expect((await gql(list, as(X))).campaigns.map((c: { id: string }) => c.id)).to.include(id('c6'));
    expect((await gql(list, BACK_OFFICE)).campaigns.map((c: { id: string }) => c.id)).to.include(id('c6'));
    expect((await gql(list)).campaigns.map((c: { id: string }) => c.id)).to.not.include(id('c6'));
  });

  it('lets the creator grant and revoke access; grantees with canManageAccess manage others', async function () {
    const grant = (who: Record<string, string>, userAddress: string, canManageAccess?: boolean | string) =>
      h
        .request()
        .post(`/v4/campaigns/${id('c6')}/access/grant`)
        .set(who)
        .send({ userAddress, ...(canManageAccess === undefined ? {} : { canManageAccess }) });
    const revoke = (who: Record<string, string>, userAddress: string) =>
      h
        .request()
        .delete(`/v4/campaigns/${id('c6')}/access/revoke`)
        .set(who)
        .send({ userAddress });
    await grant({}, Y).expect(401);
    // c6 is private and Y may not see it yet: absent to Y (404), as on every read, not forbidden.
    await grant(as(Y), Y).expect(404);
    const granted = await grant(as(X), Y.toUpperCase().replace('0X', '0x')).expect(200);
    expect(granted.body).to.deep.include({ success: true });
    expect(granted.body.message).to.be.a('string');
    await byId('c6', as(Y)).expect(200);
    expect(await listIds(as(Y))).to.include(id('c6'));
    // Without canManageAccess a grantee cannot grant; with it (a form's "true") it can.
    await grant(as(Y), Z).expect(403);
    await grant(as(X), Y, 'true').expect(200);
    await grant(as(Y), Z).expect(200);
    const list = await h
      .request()
      .get(`/v4/campaigns/${id('c6')}/access/list`)
      .set(as(Y))
      .expect(200);
    expect(
      list.body.dynamicGrants.map((g: { userAddress: string; canManageAccess: boolean }) => [
        g.userAddress,
        g.canManageAccess,
      ]),
    ).to.deep.equal([
      [Y, true],
      [Z, false],
    ]);
    await h
      .request()
      .get(`/v4/campaigns/${id('c6')}/access/list`)
      .set(as(Z))
      .expect(403);
    await h
      .request()
      .get(`/v4/campaigns/${id('c6')}/access/list`)
      .expect(401);
    await byId('c6', as(Z)).expect(200);
    await revoke(as(Y), Z).expect(200);
    await byId('c6', as(Z)).expect(404);
    await revoke(as(Y), Z).expect(404);
    // Re-granting reactivates; the back office manages any campaign.
    await grant(BACK_OFFICE, Z).expect(200);
    await byId('c6', as(Z)).expect(200);
    await revoke(BACK_OFFICE, Z).expect(200);
  });

  it('refuses bad bodies naming the field, and unknown campaigns with 404', async function () {
    const res = await h
      .request()
      .post(`/v4/campaigns/${id('c6')}/access/grant`)
      .set(as(X))
      .send({ canManageAccess: true })
      .expect(400);
    expect(res.body.errors.map((e: { field: string }) => e.field)).to.include('userAddress');
    const bad = await h
      .request()
      .post(`/v4/campaigns/${id('c6')}/access/grant`)
      .set(as(X))
      .send({ userAddress: '0x12' })
      .expect(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field)).to.include('userAddress');
    await h.request().post('/v4/campaigns/999999/access/grant').set(as(X)).send({ userAddress: Y }).expect(404);
    await h
      .request()
      .patch(`/v4/campaigns/${id('c1')}/privacy`)
      .set(as(X))
      .send({})
      .expect(400);
  });

  it('toggles privacy by the creator or back office only, immediately and across republishing', async function () {
    await h
      .request()
      .patch(`/v4/campaigns/${id('c1')}/privacy`)
      .set(as(Y))
      .send({ isPrivate: true })
      .expect(403);
    await h
      .request()
      .patch(`/v4/campaigns/${id('c1')}/privacy`)
      .send({ isPrivate: true })
      .expect(401);
    const res = await h
      .request()
      .patch(`/v4/campaigns/${id('c1')}/privacy`)
      .set(as(X))
      .send({ isPrivate: 'true', authorizedAddresses: [{ address: Z }] })
      .expect(200);
    expect(res.body).to.deep.include({
      isPrivate: true,
      recipientsCanView: true,
      authorizedAddresses: [{ address: Z, canManageAccess: false }],
    });
    await h.refresh();
    expect(await listIds({}, false)).to.not.include(id('c1'));
    await h
      .request()
      .get(`/v4/campaigns/${id('c1')}`)
      .expect(404);
    // The projector rebuilds the document from PostgreSQL: it stays private.
    expect((await h.runJob('publish')).status).to.equal('success');
    await h.refresh();
    await h
      .request()
      .get(`/v4/campaigns/${id('c1')}`)
      .expect(404);
    // Static list (Z) and recipients (W) may read it; recipients no more once recipientsCanView is false.
    await byId('c1', as(Z)).expect(200);
    await byId('c1', as(W)).expect(200);
    await h
      .request()
      .patch(`/v4/campaigns/${id('c1')}/privacy`)
      .set(BACK_OFFICE)
      .send({ recipientsCanView: false })
      .expect(200);
    await byId('c1', as(W)).expect(404);
    await h
      .request()
      .get(`/v4/campaigns/${id('c1')}/privacy`)
      .set(as(Z))
      .expect(403);
    const inspect = await h
      .request()
      .get(`/v4/campaigns/${id('c1')}/privacy`)
      .set(as(X))
      .expect(200);
    expect(inspect.body).to.include({ isPrivate: true, recipientsCanView: false });
    await h
      .request()
      .patch(`/v4/campaigns/${id('c1')}/privacy`)
      .set(as(X))
      .send({ isPrivate: false })
      .expect(200);
    await h.refresh();
    await h
      .request()
      .get(`/v4/campaigns/${id('c1')}`)
      .expect(200);
  });
});
