import { expect } from 'chai';
import { seedCampaigns, seedCampaignsSpec, type SeedCampaign } from '../../fixtures/api/campaigns/seed.js';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { TEST_BACK_OFFICE_TOKEN } from '../../helpers/testConfig.js';

const BO = { authorization: TEST_BACK_OFFICE_TOKEN };

describe('back-office curation of opportunities: tags and programs feed the tags / programSlugs filters', function () {
  let h: Harness;
  let s: Record<string, SeedCampaign>;
  const opp = (k: string) => s[k]!.opportunityId;
  const filtered = async (query: Record<string, string>) =>
    (
      (
        await h
          .request()
          .get('/v4/opportunities')
          .query({ ...query, test: 'true', status: 'LIVE,SOON,PAST', items: 100 })
          .expect(200)
      ).body as { id: string }[]
    )
      .map((o) => o.id)
      .sort();

  before(async function () {
    h = await createHarness({ chainIds: [31337] });
    s = seedCampaignsSpec(Math.floor(Date.now() / 1000));
    await seedCampaigns(h, s);
    expect((await h.runJob('publish')).status).to.equal('success');
    await h.refresh();
  });
  after(async () => h?.close());

  it('replaces tags and program slugs (back office only), at once in search and after republishing', async function () {
    await h
      .request()
      .patch(`/v4/opportunities/${opp('c1')}`)
      .send({ tags: ['featured'] })
      .expect(401);
    const res = await h
      .request()
      .patch(`/v4/opportunities/${opp('c1')}`)
      .set(BO)
      .send({ tags: ['featured', 'blue-chip'], programSlugs: ['arb-ltipp'] })
      .expect(200);
    expect(res.body).to.deep.equal({
      id: opp('c1'),
      tags: ['featured', 'blue-chip'],
      programSlugs: ['arb-ltipp'],
      mainProtocolId: null,
    });
    await h
      .request()
      .patch(`/v4/opportunities/${opp('c4')}`)
      .set(BO)
      .send({ programSlugs: ['arb-ltipp', 'op-grants'] })
      .expect(200);
    await h.refresh();
    expect(await filtered({ tags: 'featured' })).to.deep.equal([opp('c1')]);
    expect(await filtered({ programSlugs: 'arb-ltipp' })).to.deep.equal([opp('c1'), opp('c4')].sort());
    expect(await filtered({ programSlugs: 'op-grants' })).to.deep.equal([opp('c4')]);
    expect(
      (
        await h
          .request()
          .get(`/v4/opportunities/${opp('c1')}`)
          .expect(200)
      ).body.tags,
    ).to.deep.equal(['featured', 'blue-chip']);
    // The projector rebuilds the documents from PostgreSQL: the curation stays.
    expect((await h.runJob('publish')).status).to.equal('success');
    await h.refresh();
    expect(await filtered({ tags: 'blue-chip' })).to.deep.equal([opp('c1')]);
  });

  it('adds and removes tags, de-duplicated and sorted', async function () {
    const res = await h
      .request()
      .patch(`/v4/opportunities/${opp('c1')}/tags`)
      .set(BO)
      .send({ add: ['new', 'featured'], remove: ['blue-chip'] })
      .expect(200);
    expect(res.body.tags).to.deep.equal(['featured', 'new']);
    await h.refresh();
    expect(await filtered({ tags: 'blue-chip' })).to.deep.equal([]);
    expect(await filtered({ tags: 'new,other' })).to.deep.equal([opp('c1')]);
  });

  it('refuses unknown opportunities (404), bad labels and empty bodies (400 naming the field)', async function () {
    await h
      .request()
      .patch('/v4/opportunities/123456789')
      .set(BO)
      .send({ tags: ['x'] })
      .expect(404);
    const bad = await h
      .request()
      .patch(`/v4/opportunities/${opp('c1')}`)
      .set(BO)
      .send({ tags: ['Not A Slug'] })
      .expect(400);
    expect(bad.body.errors[0].field).to.equal('tags.0');
    await h
      .request()
      .patch(`/v4/opportunities/${opp('c1')}/tags`)
      .set(BO)
      .send({})
      .expect(400);
    const many = await h
      .request()
      .patch(`/v4/opportunities/${opp('c1')}`)
      .set(BO)
      .send({ programSlugs: Array.from({ length: 51 }, (_, i) => `p${i}`) })
      .expect(400);
    expect(many.body.errors[0].field).to.equal('programSlugs');
  });

  it('records every write in the audit log (who, before, after) and nothing for a refused one', async function () {
    const id = opp('c2');
    await h
      .request()
      .patch(`/v4/opportunities/${id}`)
      .set({ ...BO, 'x-audit-actor': 'ops@example.org' })
      .send({ tags: ['audited'] })
      .expect(200);
    await h
      .request()
      .patch(`/v4/opportunities/${id}/tags`)
      .set({ ...BO, 'x-audit-actor': 'bad actor name!' })
      .send({ add: ['second'] })
      .expect(200);
    await h
      .request()
      .patch(`/v4/opportunities/${id}`)
      .send({ tags: ['refused'] })
      .expect(401);
    const { rows } = await h.deps.pg.query(
      "SELECT actor, action, before, after FROM back_office_audit WHERE entity = 'opportunity' AND entity_id = $1 ORDER BY id",
      [id],
    );
    expect(rows).to.have.length(2);
    expect(rows[0].actor).to.equal('back-office:ops@example.org');
    expect(rows[0].action).to.equal('update');
    expect(rows[0].before).to.deep.equal({ tags: [], programSlugs: [], mainProtocolId: null });
    expect(rows[0].after).to.deep.equal({ tags: ['audited'], programSlugs: [], mainProtocolId: null });
    expect(rows[1].actor).to.equal('back-office');
    expect(rows[1].before).to.deep.equal(rows[0].after);
    expect(rows[1].after).to.deep.equal({ tags: ['audited', 'second'], programSlugs: [], mainProtocolId: null });
  });
});
