import { expect } from 'chai';
import { generatePrivateKey } from 'viem/accounts';
import { createCampaigns, encodeErc20CampaignData, getLatestTimestamp } from '../../../contracts/actions.js';
import { campaignDbId } from '../../../domain/ids.js';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { login, type Session } from './authFlow.js';

describe('campaign lists: owner-managed named lists, public reads, used by GET /v4/campaigns', function () {
  let h: Harness;
  let alice: Session;
  let bob: Session;
  let ids: string[];

  before(async function () {
    h = await createHarness({ chainIds: [31337] });
    const { devnet, stack } = h.chains[0]!;
    const now = await getLatestTimestamp({ rpcUrl: devnet.rpcUrl });
    const created = await createCampaigns({
      rpcUrl: devnet.rpcUrl,
      chainId: devnet.chainId,
      stack,
      campaigns: [0, 1, 2].map((i) => ({
        rewardToken: stack.tokens.rewards[0]!.address,
        amount: 10n ** 18n,
        campaignType: 1,
        startTimestamp: now + 1000 + i,
        duration: 86_400,
        campaignData: encodeErc20CampaignData({ targetToken: stack.tokens.targets[0]!.address }),
      })),
    });
    ids = created.campaignIds.map((id) => campaignDbId(31337, id));
    for (const job of ['blocks', 'campaigns']) await h.runJob(job);
    await h.refresh();
    alice = await login(h, generatePrivateKey());
    bob = await login(h, generatePrivateKey());
  });

  after(async () => h?.close());

  const as = (s: Session | null) => (req: import('supertest').Test) => (s ? req.set('cookie', s.cookie) : req);

  it('lets an owner create, rename, edit and delete lists; names are case-insensitive', async function () {
    const created = await as(alice)(
      h
        .request()
        .post('/v4/campaign-lists')
        .send({ name: 'Favourites', campaignIds: [ids[0], ids[1]] }),
    ).expect(200);
    expect(created.body).to.include({ owner: alice.address, name: 'favourites' });
    await as(alice)(h.request().post('/v4/campaign-lists').send({ name: 'FAVOURITES' })).expect(409);
    const edited = await as(alice)(
      h
        .request()
        .patch('/v4/campaign-lists/FAVOURITES')
        .send({ add: [ids[2]], remove: [ids[0]] }),
    ).expect(200);
    expect(edited.body.campaignIds).to.deep.equal([ids[1], ids[2]]);
    const renamed = await as(alice)(h.request().patch('/v4/campaign-lists/favourites').send({ name: 'Top' })).expect(
      200,
    );
    expect(renamed.body.name).to.equal('top');
    const read = await h.request().get(`/v4/campaign-lists/${alice.address}/TOP`).expect(200);
    expect(read.body.campaignIds).to.deep.equal([ids[1], ids[2]]);
    expect(
      (await h.request().get(`/v4/campaign-lists/${alice.address}`).expect(200)).body.map(
        (l: { name: string }) => l.name,
      ),
    ).to.deep.equal(['top']);
  });

  it('feeds the campaignLists + listOwner filter of GET /v4/campaigns (union of lists)', async function () {
    await as(alice)(
      h
        .request()
        .post('/v4/campaign-lists')
        .send({ name: 'other', campaignIds: [ids[0]] }),
    ).expect(200);
    const res = await h
      .request()
      .get('/v4/campaigns')
      .query({ listOwner: alice.address, campaignLists: 'TOP,other' })
      .expect(200);
    expect(res.body.map((c: { id: string }) => c.id).sort()).to.deep.equal([...ids].sort());
  });

  it("refuses writes without credentials (401), on another owner's list (404), and bad input (400 naming the field)", async function () {
    await h.request().post('/v4/campaign-lists').send({ name: 'x' }).expect(401);
    await as(bob)(
      h
        .request()
        .patch('/v4/campaign-lists/top')
        .send({ add: [ids[0]] }),
    ).expect(404);
    await as(bob)(h.request().delete('/v4/campaign-lists/top')).expect(404);
    const bad = await as(alice)(
      h
        .request()
        .post('/v4/campaign-lists')
        .send({ name: 'bad/name', campaignIds: ['0xabc'] }),
    ).expect(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).to.deep.equal(['campaignIds.0', 'name']);
    await h.request().get('/v4/campaign-lists/0xnope').expect(400);
    await h.request().get(`/v4/campaign-lists/${alice.address}/missing`).expect(404);
  });

  it('deletes a list for its owner only', async function () {
    expect((await as(alice)(h.request().delete('/v4/campaign-lists/other')).expect(200)).body).to.deep.equal({
      success: true,
    });
    await h.request().get(`/v4/campaign-lists/${alice.address}/other`).expect(404);
  });
});
