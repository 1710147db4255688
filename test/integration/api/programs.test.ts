import { expect } from 'chai';
import { HARDHAT_TEST_KEYS } from '../../../contracts/clients.js';
import { seedPrograms, DEMO_PROGRAMS } from '../../../scripts/seedPrograms.js';
import { seedCampaigns, seedCampaignsSpec, type SeedCampaign } from '../../fixtures/api/campaigns/seed.js';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { TEST_BACK_OFFICE_TOKEN } from '../../helpers/testConfig.js';
import { login } from './authFlow.js';
import { createReferenceDemo, type ReferenceDemo } from './referenceDemo.js';

const BO = { authorization: TEST_BACK_OFFICE_TOKEN };
type Opp = { id: string; tvl: number; dailyRewards: number; liveCampaigns: number; activePrograms: { slug: string }[] };
type Program = {
  id: string;
  slug: string;
  name: string;
  description: string;
  icon: string;
  dailyRewards: number;
  liveCampaigns: number;
  tvl: number;
  opportunitiesCount: number;
  campaignsCount: number;
  opportunities: Opp[];
};
const near = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** Every opportunity of a program as the opportunity list serves them (no default exclusion left). */
async function listedMembers(h: Harness, slug: string): Promise<Opp[]> {
  const res = await h
    .request()
    .get('/v4/opportunities')
    .query({ programSlugs: slug, test: 'true', point: 'true', withInvalids: 'true', items: 100 })
    .expect(200);
  return res.body as Opp[];
}

/** Public campaigns of an opportunity, counted by the campaign list (which leaves private ones out). */
async function publicCampaigns(h: Harness, opportunityId: string): Promise<number> {
  const res = await h
    .request()
    .get('/v4/campaigns/count')
    .query({ opportunityId, test: 'true', status: 'LIVE,SOON,PAST' })
    .expect(200);
  return res.body as number;
}

/** A program's totals equal the sums over its opportunities as GET /v4/opportunities?programSlugs=… serves them. */
async function expectTotalsOfMembers(h: Harness, p: Program): Promise<void> {
  const members = await listedMembers(h, p.slug);
  expect(p.opportunities.map((o) => o.id).sort()).to.deep.equal(members.map((o) => o.id).sort());
  expect(p.opportunitiesCount).to.equal(members.length);
  expect(near(p.tvl, sum(members.map((o) => o.tvl))), `tvl ${p.tvl}`).to.equal(true);
  expect(near(p.dailyRewards, sum(members.map((o) => o.dailyRewards))), `dailyRewards ${p.dailyRewards}`).to.equal(
    true,
  );
  expect(p.liveCampaigns).to.equal(sum(members.map((o) => o.liveCampaigns)));
  const counts = await Promise.all(members.map((o) => publicCampaigns(h, o.id)));
  expect(p.campaignsCount).to.equal(sum(counts));
}

describe('programs: incentive programs with their opportunities and totals (GET/POST/PATCH /v4/programs, GraphQL)', function () {
  let h: Harness;
  let s: Record<string, SeedCampaign>;
  const opp = (k: string) => s[k]!.opportunityId;
  let privateExtra = '';

  before(async function () {
    h = await createHarness({ chainIds: [31337] });
    s = seedCampaignsSpec(Math.floor(Date.now() / 1000));
    await seedCampaigns(h, s);
    // A second, private campaign in c1's opportunity: it counts in no program's figures.
    privateExtra = `${s['c1']!.id}9`;
    await h.deps.pg.query(
      `CREATE TEMP TABLE extra AS SELECT * FROM campaigns WHERE id = '${s['c1']!.id}';
       UPDATE extra SET id = '${privateExtra}', campaign_id = '0x${'ee'.repeat(32)}', log_index = 9;
       INSERT INTO campaigns SELECT * FROM extra;
       DROP TABLE extra;`,
    );
    await h.deps.pg.query(
      'INSERT INTO campaign_privacy (campaign_db_id, is_private, updated_by) VALUES ($1, true, $2)',
      [privateExtra, s['c1']!.creator],
    );
    // Figures of three opportunities (as the metrics job writes them).
    for (const [key, tvl, daily] of [
      ['c1', 1000, 50],
      ['c4', 250.5, 12.25],
      ['c2', 40, 1.5],
    ] as const)
      await h.deps.pg.query(
        `INSERT INTO opportunity_metrics (opportunity_id, computed_at, tvl, apr, daily_rewards, records, inputs, live_campaigns)
         VALUES ($1, now(), $2, 1, $3, '{}', '{}', 1)`,
        [opp(key), tvl, daily],
      );
    await h.deps.pg.query(
      "INSERT INTO search_outbox (entity, entity_id) SELECT 'opportunity', unnest($1::text[]) UNION ALL SELECT 'campaign', $2",
      [Object.values(s).map((c) => c.opportunityId), privateExtra],
    );
    expect((await h.runJob('publish')).status).to.equal('success');
    await h.refresh();
  });
  after(async () => h?.close());

  it('refuses writes without the back-office credential (401) and to a wallet (403), recording nothing', async function () {
    await h.request().post('/v4/programs').send({ name: 'Nope' }).expect(401);
    await h.request().post('/v4/programs').set({ authorization: 'wrong' }).send({ name: 'Nope' }).expect(401);
    const session = await login(h, HARDHAT_TEST_KEYS[1]!);
    const refused = await h
      .request()
      .post('/v4/programs')
      .set('authorization', `Bearer ${session.token}`)
      .send({ name: 'Nope' })
      .expect(403);
    expect(refused.type).to.equal('application/problem+json');
    await h.request().patch('/v4/programs/anything').send({ name: 'Nope' }).expect(401);
    const { rows } = await h.deps.pg.query("SELECT 1 FROM back_office_audit WHERE entity = 'program'");
    expect(rows).to.deep.equal([]);
    expect((await h.request().get('/v4/programs/count').expect(200)).body).to.equal(0);
  });

  it('creates a program whose totals are the sums over its visible opportunities and campaigns (private ones count nowhere)', async function () {
    const created = await h
      .request()
      .post('/v4/programs')
      .set({ ...BO, 'x-audit-actor': 'ops@example.org' })
      .send({
        name: 'Arbitrum LTIPP',
        slug: 'arb-ltipp',
        description: 'Long-term incentives',
        icon: 'https://icons.invalid/arb.svg',
        // c6's only campaign is private: its opportunity has no public document and shows nowhere.
        opportunities: [opp('c1'), opp('c4'), opp('c6')],
      })
      .expect(201);
    const p = created.body as Program;
    expect(p).to.include({ slug: 'arb-ltipp', name: 'Arbitrum LTIPP', description: 'Long-term incentives' });
    expect(p.id).to.match(/^[0-9a-f-]{36}$/);
    expect(p.opportunities.map((o) => o.id).sort()).to.deep.equal([opp('c1'), opp('c4')].sort());
    expect(p.tvl).to.equal(1250.5);
    expect(p.dailyRewards).to.equal(62.25);
    // c1 and c4 are live; c1's private sibling is in no count.
    expect(p.liveCampaigns).to.equal(2);
    expect(p.campaignsCount).to.equal(2);
    await expectTotalsOfMembers(h, p);
    // Opportunities carry the program (activePrograms) and filter by it, at once.
    for (const o of p.opportunities) expect(o.activePrograms.map((a) => a.slug)).to.deep.equal(['arb-ltipp']);
    const one = await h
      .request()
      .get(`/v4/opportunities/${opp('c1')}`)
      .expect(200);
    expect(one.body.activePrograms).to.deep.equal([
      {
        id: p.id,
        name: 'Arbitrum LTIPP',
        slug: 'arb-ltipp',
        description: 'Long-term incentives',
        icon: 'https://icons.invalid/arb.svg',
      },
    ]);
    const none = await h
      .request()
      .get(`/v4/opportunities/${opp('c2')}`)
      .expect(200);
    expect(none.body.activePrograms).to.deep.equal([]);
    // The projector rebuilds the documents from PostgreSQL: the membership stays.
    expect((await h.runJob('publish')).status).to.equal('success');
    await h.refresh();
    expect((await listedMembers(h, 'arb-ltipp')).map((o) => o.id).sort()).to.deep.equal([opp('c1'), opp('c4')].sort());
    const audit = await h.deps.pg.query(
      "SELECT actor, action, before, after FROM back_office_audit WHERE entity = 'program' AND entity_id = $1",
      [p.id],
    );
    expect(audit.rows).to.have.length(1);
    expect(audit.rows[0]).to.deep.include({ actor: 'back-office:ops@example.org', action: 'create', before: null });
    expect(audit.rows[0].after).to.deep.include({ slug: 'arb-ltipp', name: 'Arbitrum LTIPP' });
    expect(audit.rows[0].after.opportunities).to.deep.equal([opp('c1'), opp('c4'), opp('c6')].sort());
  });

  it('updates a program (fields, slug, members) with its audit row; members and totals follow at once', async function () {
    const before = (await h.request().get('/v4/programs/arb-ltipp').expect(200)).body as Program;
    const res = await h
      .request()
      .patch(`/v4/programs/${before.id}`)
      .set(BO)
      .send({
        slug: 'arb-ltipp-2',
        name: 'Arbitrum LTIPP 2',
        opportunitiesToAdd: [opp('c2')],
        opportunitiesToRemove: [opp('c4')],
      })
      .expect(200);
    const p = res.body as Program;
    expect(p).to.include({
      id: before.id,
      slug: 'arb-ltipp-2',
      name: 'Arbitrum LTIPP 2',
      description: 'Long-term incentives',
    });
    expect(p.opportunities.map((o) => o.id).sort()).to.deep.equal([opp('c1'), opp('c2')].sort());
    expect(p.tvl).to.equal(1040);
    expect(p.dailyRewards).to.equal(51.5);
    await expectTotalsOfMembers(h, p);
    // The old slug is gone from every opportunity; the renamed program is on each member.
    expect(await listedMembers(h, 'arb-ltipp')).to.deep.equal([]);
    const c4 = await h
      .request()
      .get(`/v4/opportunities/${opp('c4')}`)
      .expect(200);
    expect(c4.body.activePrograms).to.deep.equal([]);
    const c1 = await h
      .request()
      .get(`/v4/opportunities/${opp('c1')}`)
      .expect(200);
    expect(c1.body.activePrograms.map((a: { name: string }) => a.name)).to.deep.equal(['Arbitrum LTIPP 2']);
    const { rows } = await h.deps.pg.query(
      "SELECT action, before, after FROM back_office_audit WHERE entity = 'program' AND entity_id = $1 ORDER BY id",
      [p.id],
    );
    expect(rows.map((r) => r.action)).to.deep.equal(['create', 'update']);
    expect(rows[1].before).to.deep.include({ slug: 'arb-ltipp', name: 'Arbitrum LTIPP' });
    expect(rows[1].after).to.deep.include({ slug: 'arb-ltipp-2', name: 'Arbitrum LTIPP 2' });
    expect(rows[1].after.opportunities).to.deep.equal([opp('c1'), opp('c2'), opp('c6')].sort());
    // PATCH /v4/opportunities/{id} is the same membership: it puts c4 back and activePrograms follows.
    await h
      .request()
      .patch(`/v4/opportunities/${opp('c4')}`)
      .set(BO)
      .send({ programSlugs: ['arb-ltipp-2'] })
      .expect(200);
    await h.refresh();
    const again = (await h.request().get('/v4/programs/arb-ltipp-2').expect(200)).body as Program;
    expect(again.opportunitiesCount).to.equal(3);
    expect(
      (
        await h
          .request()
          .get(`/v4/opportunities/${opp('c4')}`)
          .expect(200)
      ).body.activePrograms,
    ).to.have.length(1);
    await expectTotalsOfMembers(h, again);
  });

  it('lists, filters, pages and counts programs; reads one by id or slug (404 otherwise)', async function () {
    await h.request().post('/v4/programs').set(BO).send({ name: 'Optimism Grants Ö' }).expect(201);
    const derived = await h.request().get('/v4/programs/optimism-grants-o').expect(200);
    expect(derived.body).to.include({ name: 'Optimism Grants Ö', opportunitiesCount: 0, tvl: 0, campaignsCount: 0 });
    const all = (await h.request().get('/v4/programs/').expect(200)).body as Program[];
    expect(all.map((p) => p.slug)).to.deep.equal(['arb-ltipp-2', 'optimism-grants-o']);
    expect(
      (await h.request().get('/v4/programs?name=GRANTS').expect(200)).body.map((p: Program) => p.slug),
    ).to.deep.equal(['optimism-grants-o']);
    expect(
      (await h.request().get('/v4/programs?slugs=arb-ltipp-2,nope').expect(200)).body.map((p: Program) => p.slug),
    ).to.deep.equal(['arb-ltipp-2']);
    expect(
      (await h.request().get('/v4/programs?items=1&page=1').expect(200)).body.map((p: Program) => p.slug),
    ).to.deep.equal(['optimism-grants-o']);
    expect((await h.request().get('/v4/programs/count').expect(200)).body).to.equal(2);
    expect((await h.request().get('/v4/programs/count/?name=arbitrum').expect(200)).body).to.equal(1);
    const byId = await h.request().get(`/v4/programs/${all[0]!.id}`).expect(200);
    expect(byId.body).to.deep.equal(all[0]);
    const missing = await h.request().get('/v4/programs/no-such-program').expect(404);
    expect(missing.type).to.equal('application/problem+json');
    await h.request().get('/v4/programs/00000000-0000-4000-8000-000000000000').expect(404);
  });

  it('refuses bad input with a 400 naming the field, a taken slug with a 409, an unknown program with a 404', async function () {
    const field = async (req: Promise<{ body: { errors: { field: string }[] } }>) => (await req).body.errors[0]!.field;
    expect(await field(h.request().post('/v4/programs').set(BO).send({}).expect(400))).to.equal('name');
    expect(
      await field(h.request().post('/v4/programs').set(BO).send({ name: 'x', slug: 'Not A Slug' }).expect(400)),
    ).to.equal('slug');
    expect(await field(h.request().post('/v4/programs').set(BO).send({ name: '!!!' }).expect(400))).to.equal('slug');
    expect(
      await field(
        h
          .request()
          .post('/v4/programs')
          .set(BO)
          .send({ name: 'x', opportunities: [opp('c1'), '123456789'] })
          .expect(400),
      ),
    ).to.equal('opportunities.1');
    expect(await field(h.request().post('/v4/programs').set(BO).send({ name: 'x', extra: 1 }).expect(400))).to.equal(
      'extra',
    );
    expect(await field(h.request().get('/v4/programs?items=51').expect(400))).to.equal('items');
    expect(await field(h.request().get('/v4/programs?slugs=A,b').expect(400))).to.equal('slugs');
    expect(await field(h.request().patch('/v4/programs/arb-ltipp-2').set(BO).send({}).expect(400))).to.match(
      /^(body)?$/,
    );
    expect(
      await field(
        h
          .request()
          .patch('/v4/programs/arb-ltipp-2')
          .set(BO)
          .send({ opportunitiesToAdd: ['999999'] })
          .expect(400),
      ),
    ).to.equal('opportunitiesToAdd.0');
    const taken = await h
      .request()
      .post('/v4/programs')
      .set(BO)
      .send({ name: 'Again', slug: 'arb-ltipp-2' })
      .expect(409);
    expect(taken.body.errors[0].field).to.equal('slug');
    await h.request().patch('/v4/programs/arb-ltipp-2').set(BO).send({ slug: 'optimism-grants-o' }).expect(409);
    await h.request().patch('/v4/programs/no-such-program').set(BO).send({ name: 'x' }).expect(404);
    // Nothing refused was written.
    expect((await h.request().get('/v4/programs/count').expect(200)).body).to.equal(2);
  });

  it('answers GraphQL programs and program(idOrSlug) with the REST figures', async function () {
    const rest = (await h.request().get('/v4/programs/arb-ltipp-2').expect(200)).body as Program;
    const res = await h
      .request()
      .post('/graphql/v1')
      .send({
        query: `{ programs(name: "arbitrum") { slug tvl dailyRewards liveCampaigns campaignsCount opportunitiesCount opportunities { id activePrograms { slug name } } }
                  program(idOrSlug: "${rest.id}") { id slug tvl } missing: program(idOrSlug: "nope") { id } }`,
      })
      .expect(200);
    expect(res.body.errors, JSON.stringify(res.body.errors)).to.equal(undefined);
    const [p] = res.body.data.programs;
    expect(p).to.deep.include({
      slug: rest.slug,
      tvl: rest.tvl,
      dailyRewards: rest.dailyRewards,
      liveCampaigns: rest.liveCampaigns,
      campaignsCount: rest.campaignsCount,
      opportunitiesCount: rest.opportunitiesCount,
    });
    expect(p.opportunities.map((o: { id: string }) => o.id).sort()).to.deep.equal(
      rest.opportunities.map((o) => o.id).sort(),
    );
    expect(p.opportunities[0].activePrograms).to.deep.equal([{ slug: rest.slug, name: rest.name }]);
    expect(res.body.data.program).to.deep.equal({ id: rest.id, slug: rest.slug, tvl: rest.tvl });
    expect(res.body.data.missing).to.equal(null);
    const bad = await h.request().post('/graphql/v1').send({ query: '{ programs(items: 500) { slug } }' });
    expect(bad.body.errors[0].extensions.code).to.equal('BAD_USER_INPUT');
  });
});

describe('programs of the quick-start demo (scripts/seedPrograms.ts)', function () {
  let demo: ReferenceDemo;
  before(async function () {
    demo = await createReferenceDemo();
    await seedPrograms(demo.h.deps.pg);
    expect((await demo.h.runJob('publish')).status).to.equal('success');
    await demo.h.refresh();
  });
  after(async () => demo?.close());

  it('seeds the demo programs with opportunities and plausible totals equal to the sums over them', async function () {
    const programs = (await demo.h.request().get('/v4/programs').expect(200)).body as Program[];
    expect(programs.map((p) => p.slug).sort()).to.deep.equal(DEMO_PROGRAMS.map((p) => p.slug).sort());
    for (const p of programs) {
      expect(p.opportunitiesCount, p.slug).to.be.greaterThan(0);
      expect(p.campaignsCount, p.slug).to.be.greaterThan(0);
      expect(p.dailyRewards, p.slug).to.be.greaterThan(0);
      await expectTotalsOfMembers(demo.h, p);
      for (const o of p.opportunities) expect(o.activePrograms.map((a) => a.slug)).to.include(p.slug);
    }
    // Re-seeding is harmless.
    await seedPrograms(demo.h.deps.pg);
    expect((await demo.h.request().get('/v4/programs/count').expect(200)).body).to.equal(DEMO_PROGRAMS.length);
  });

  it("keeps an operator's curation of a demo program when the quick start seeds again", async function () {
    const [first] = DEMO_PROGRAMS;
    const seeded = (await demo.h.request().get(`/v4/programs/${first!.slug}`).expect(200)).body as Program;
    const dropped = seeded.opportunities[0]!.id;
    await demo.h
      .request()
      .patch(`/v4/programs/${first!.slug}`)
      .set(BO)
      .send({ name: 'Curated name', opportunitiesToRemove: [dropped] })
      .expect(200);
    await seedPrograms(demo.h.deps.pg);
    const after = (await demo.h.request().get(`/v4/programs/${first!.slug}`).expect(200)).body as Program;
    expect(after.name).to.equal('Curated name');
    expect(after.opportunities.map((o) => o.id)).to.not.include(dropped);
    expect(after.opportunitiesCount).to.equal(seeded.opportunitiesCount - 1);
  });
});
