import { expect } from 'chai';
import { encodeErc20CampaignData } from '../../../contracts/actions.js';
import { HARDHAT_TEST_KEYS } from '../../../contracts/clients.js';
import { TEMPLATES } from '../../../domain/templates.js';
import { indexNames } from '../../../internal/es.js';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { TEST_BACK_OFFICE_TOKEN } from '../../helpers/testConfig.js';
import { login } from './authFlow.js';

const BO = { authorization: TEST_BACK_OFFICE_TOKEN };
const DAY = 86_400;
const ACME = {
  id: 'acme-lend',
  name: 'Acme Lend',
  icon: 'https://icons.example.org/acme.svg',
  url: 'https://app.acme.example',
  description: 'Acme Lend markets.',
  tags: ['lending', 'acme'],
};

/**
 * The last back-office reference-data writes of #46: POST /v4/protocols (an added protocol is a row of the catalogue,
 * served by every protocol read, usable by opportunities and templates) and POST/PATCH/PUT/DELETE /v4/templates
 * (operators' templates beside the built-in ones, which are code and refused with a 409). Real PostgreSQL and
 * Elasticsearch; every write is audit-logged.
 */
describe('back-office writes: added protocols and campaign templates', function () {
  let h: Harness;
  let cookie: string;
  const OPPORTUNITY = '88001';

  const doc = async (id: string) =>
    (await h.deps.es.get({ index: indexNames(h.config.esIndexPrefix, 'opportunities').read, id }))._source as Record<
      string,
      unknown
    >;
  const audit = async (entity: string, entityId: string) =>
    (
      await h.deps.pg.query(
        'SELECT actor, action, before, after FROM back_office_audit WHERE entity = $1 AND entity_id = $2 ORDER BY id',
        [entity, entityId],
      )
    ).rows;
  const fieldsOf = (res: { body: { errors?: { field: string }[] } }) => (res.body.errors ?? []).map((e) => e.field);

  before(async function () {
    h = await createHarness({ chainIds: [31337] });
    cookie = (await login(h, HARDHAT_TEST_KEYS[2])).cookie;
    // An ERC20 hold opportunity (its type names no protocol) with one live campaign, written as the indexer writes them.
    const now = Math.floor(Date.now() / 1000);
    const target = `0x${'88'.repeat(20)}`;
    await h.deps.pg.query(
      `INSERT INTO opportunities (id, chain_id, type, identifier, action) VALUES ($1, 31337, 'ERC20', $2, 'HOLD')`,
      [OPPORTUNITY, target],
    );
    await h.deps.pg.query(
      `INSERT INTO campaigns (id, distribution_chain_id, compute_chain_id, campaign_id, creator, reward_token, amount, campaign_type,
         start_timestamp, end_timestamp, campaign_data, block_number, block_hash, tx_hash, log_index, created_at, main_parameter,
         opportunity_id, params)
       VALUES ('88002', 31337, 31337, $1, $2, $3, '1000000', 1, $4, $5, $6, 1, $1, $1, 0, now(), $7, $8, '{}')`,
      [
        `0x${'89'.repeat(32)}`,
        `0x${'8a'.repeat(20)}`,
        `0x${'8b'.repeat(20)}`,
        now - 3600,
        now + 7 * DAY,
        encodeErc20CampaignData({ targetToken: target as `0x${string}` }),
        target,
        OPPORTUNITY,
      ],
    );
    await h.deps.pg.query("INSERT INTO search_outbox (entity, entity_id) VALUES ('campaign', '88002')");
    expect((await h.runJob('publish')).status).to.equal('success');
  });
  after(async () => h?.close());

  it('POST /v4/protocols: back office only, 400 naming the field, 201 then served by every protocol read, 409 for an id taken, audited', async function () {
    await h.request().post('/v4/protocols').send(ACME).expect(401);
    await h.request().post('/v4/protocols').set('Cookie', cookie).send(ACME).expect(403);
    const { icon: _icon, ...noIcon } = ACME;
    expect(fieldsOf(await h.request().post('/v4/protocols').set(BO).send(noIcon).expect(400))).to.deep.equal(['icon']);
    expect(
      fieldsOf(
        await h
          .request()
          .post('/v4/protocols')
          .set(BO)
          .send({ ...ACME, url: 'ftp://acme' })
          .expect(400),
      ),
    ).to.deep.equal(['url']);
    expect(
      fieldsOf(
        await h
          .request()
          .post('/v4/protocols/')
          .set(BO)
          .send({ ...ACME, id: 'Acme Lend' })
          .expect(400),
      ),
    ).to.deep.equal(['id']);
    expect((await h.request().get('/v4/protocols/acme-lend').expect(404)).body.status).to.equal(404);
    const countBefore = (await h.request().get('/v4/protocols/count').expect(200)).body as number;

    const created = await h
      .request()
      .post('/v4/protocols')
      .set({ ...BO, 'x-audit-actor': 'ops@example.org' })
      .send(ACME)
      .expect(201);
    expect(created.body).to.deep.include({ ...ACME, dailyRewards: 0, numberOfLiveCampaigns: 0, banner: null });

    const listed = (await h.request().get('/v4/protocols').query({ items: 100 }).expect(200)).body as { id: string }[];
    expect(listed.find((p) => p.id === 'acme-lend')).to.deep.include(ACME);
    expect((await h.request().get('/v4/protocols').query({ tags: 'acme' }).expect(200)).body).to.have.length(1);
    expect((await h.request().get('/v4/protocols/acme-lend/').expect(200)).body).to.deep.include(ACME);
    expect((await h.request().get('/v4/protocols/count').expect(200)).body).to.equal(countBefore + 1);
    expect((await h.request().get('/v4/protocols/count').query({ name: 'acme' }).expect(200)).body).to.equal(1);

    const again = await h.request().post('/v4/protocols').set(BO).send(ACME).expect(409);
    expect(again.body.detail).to.match(/acme-lend exists/);
    const registered = await h
      .request()
      .post('/v4/protocols')
      .set(BO)
      .send({ ...ACME, id: 'morpho' })
      .expect(409);
    expect(registered.body.detail).to.match(/registered/);

    const rows = await audit('protocol', 'acme-lend');
    expect(rows).to.have.length(1);
    expect(rows[0]).to.deep.include({ actor: 'back-office:ops@example.org', action: 'create', before: null });
    expect(rows[0].after).to.deep.equal(ACME);

    // The jobs that write reference data and documents leave the added protocol alone.
    for (const job of ['blocks', 'campaigns', 'tokens', 'publish'])
      expect((await h.runJob(job)).status, job).to.equal('success');
    expect((await h.request().get('/v4/protocols/acme-lend').expect(200)).body).to.deep.include(ACME);
  });

  it('an opportunity takes the added protocol (PATCH /v4/opportunities/{id} mainProtocolId): its document, filters and the protocol figures follow', async function () {
    expect((await doc(OPPORTUNITY))['protocol']).to.equal(null);
    const bad = await h
      .request()
      .patch(`/v4/opportunities/${OPPORTUNITY}`)
      .set(BO)
      .send({ mainProtocolId: 'no-such-protocol' })
      .expect(400);
    expect(fieldsOf(bad)).to.deep.equal(['mainProtocolId']);
    await h
      .request()
      .patch(`/v4/opportunities/${OPPORTUNITY}`)
      .set('Cookie', cookie)
      .send({ mainProtocolId: 'acme-lend' })
      .expect(403);

    const res = await h
      .request()
      .patch(`/v4/opportunities/${OPPORTUNITY}`)
      .set(BO)
      .send({ mainProtocolId: 'acme-lend' })
      .expect(200);
    expect(res.body).to.deep.include({ id: OPPORTUNITY, mainProtocolId: 'acme-lend' });
    // Republished before the answer: the document embeds the added protocol.
    const published = await doc(OPPORTUNITY);
    expect(published['mainProtocol']).to.equal('acme-lend');
    expect(published['protocol']).to.deep.include({ id: 'acme-lend', name: 'Acme Lend', icon: ACME.icon });
    await h.refresh();
    const served = (
      await h.request().get('/v4/opportunities').query({ mainProtocolId: 'acme-lend', test: true }).expect(200)
    ).body as { id: string; protocol: { name: string; icon: string } }[];
    expect(served.map((o) => o.id)).to.deep.equal([OPPORTUNITY]);
    expect(served[0]!.protocol).to.deep.include({ name: 'Acme Lend', icon: ACME.icon });
    expect((await h.request().get('/v4/protocols/acme-lend').expect(200)).body.numberOfLiveCampaigns).to.equal(1);
    // Its campaign's document says the same protocol: counts by protocol agree with the opportunity.
    const byProtocol = async () =>
      (await h.request().get('/v4/campaigns/count/by-protocols').query({ test: true }).expect(200)).body as Record<
        string,
        number
      >;
    expect(await byProtocol()).to.have.property('acme-lend', 1);
    // PostgreSQL's per-type groups cannot tell the moved protocol: the distributed totals read the documents then.
    const distributedPath = async () =>
      (await h.request().get('/v4/rewards/total/distributed/by-protocols').expect(200)).headers['server-timing'];
    expect(await distributedPath()).to.match(/distributed;desc=search/);

    // PATCH of an added protocol edits its row and republishes its opportunities.
    const patched = await h
      .request()
      .patch('/v4/protocols/acme-lend')
      .set(BO)
      .send({ name: 'Acme', icon: 'https://icons.example.org/acme-2.svg' })
      .expect(200);
    expect(patched.body).to.deep.include({ id: 'acme-lend', name: 'Acme', url: ACME.url, numberOfLiveCampaigns: 1 });
    expect((await doc(OPPORTUNITY))['protocol']).to.deep.include({
      name: 'Acme',
      icon: 'https://icons.example.org/acme-2.svg',
    });
    const rows = await audit('protocol', 'acme-lend');
    expect(rows.map((r) => r.action)).to.deep.equal(['create', 'update']);
    expect(rows[1].before).to.include({ name: 'Acme Lend' });
    expect(rows[1].after).to.include({ name: 'Acme' });
    const opp = await audit('opportunity', OPPORTUNITY);
    expect(opp.at(-1)!.before).to.include({ mainProtocolId: null });
    expect(opp.at(-1)!.after).to.include({ mainProtocolId: 'acme-lend' });

    // A rebuild from PostgreSQL (the publish job) keeps it; null gives the opportunity its type's protocol (none) back.
    await h.deps.pg.query("INSERT INTO search_outbox (entity, entity_id) VALUES ('opportunity', $1)", [OPPORTUNITY]);
    expect((await h.runJob('publish')).status).to.equal('success');
    expect((await doc(OPPORTUNITY))['mainProtocol']).to.equal('acme-lend');
    await h.request().patch(`/v4/opportunities/${OPPORTUNITY}`).set(BO).send({ mainProtocolId: null }).expect(200);
    expect((await doc(OPPORTUNITY))['protocol']).to.equal(null);
    expect((await h.request().get('/v4/protocols/acme-lend').expect(200)).body.numberOfLiveCampaigns).to.equal(0);
    await h.refresh();
    expect(await byProtocol()).to.not.have.property('acme-lend');
    expect(await distributedPath()).to.match(/distributed;desc=(rollup|exact)/);
  });

  describe('templates', function () {
    const TEMPLATE = {
      id: 'acme-supply',
      name: 'Supply to Acme Lend',
      description: 'Reward suppliers of an Acme Lend market.',
      baseConfig: { campaignType: 1, campaignData: { whitelist: [], blacklist: [] } },
      completionConfig: { targetToken: { type: 'string', pattern: '^0x[0-9a-fA-F]{40}$' } },
      protocolId: 'acme-lend',
      action: 'LEND',
    };
    const ids = async (query: Record<string, unknown> = {}) =>
      (
        (
          await h
            .request()
            .get('/v4/templates')
            .query({ items: 100, ...query })
            .expect(200)
        ).body as { id: string }[]
      ).map((t) => t.id);

    it('POST writes a template served after the built-in ones, with its protocol; 400 naming the field, 409 for an id taken', async function () {
      await h.request().post('/v4/templates').send(TEMPLATE).expect(401);
      await h.request().post('/v4/templates').set('Cookie', cookie).send(TEMPLATE).expect(403);
      const bad = async (body: object) =>
        fieldsOf(await h.request().post('/v4/templates').set(BO).send(body).expect(400));
      expect(await bad({ ...TEMPLATE, baseConfig: { campaignType: 999 } })).to.deep.equal(['baseConfig.campaignType']);
      expect(await bad({ ...TEMPLATE, protocolId: 'no-such-protocol' })).to.deep.equal(['protocolId']);
      expect(await bad({ ...TEMPLATE, action: 'FARM' })).to.deep.equal(['action']);
      const { name: _name, ...noName } = TEMPLATE;
      expect(await bad(noName)).to.deep.equal(['name']);
      expect(await bad({ ...TEMPLATE, completionConfig: { amount: 3 } })).to.deep.equal(['completionConfig.amount']);

      const created = await h.request().post('/v4/templates/').set(BO).send(TEMPLATE).expect(201);
      expect(created.body).to.deep.include({ ...TEMPLATE });
      expect(created.body.protocol).to.deep.include({ id: 'acme-lend', name: 'Acme', url: ACME.url });
      expect(await ids()).to.deep.equal([...TEMPLATES.map((t) => t.id), 'acme-supply']);
      expect(await ids({ protocolId: 'acme-lend' })).to.deep.equal(['acme-supply']);
      expect(await ids({ search: 'acme', action: 'LEND' })).to.deep.equal(['acme-supply']);
      expect((await h.request().get('/v4/templates/acme-supply').expect(200)).body).to.deep.equal(created.body);
      expect((await h.request().get('/v4/templates/count').expect(200)).body).to.equal(TEMPLATES.length + 1);

      // Without an id: a UUID; without an action: its campaign type's (ERC20: HOLD).
      const { id: _id, action: _action, protocolId: _p, ...anonymous } = TEMPLATE;
      const generated = await h.request().post('/v4/templates').set(BO).send(anonymous).expect(201);
      expect(generated.body.id).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-/);
      expect(generated.body).to.include({ action: 'HOLD' });
      expect(generated.body).not.to.have.property('protocol');

      expect((await h.request().post('/v4/templates').set(BO).send(TEMPLATE).expect(409)).body.detail).to.match(
        /acme-supply exists/,
      );
      await h
        .request()
        .post('/v4/templates')
        .set(BO)
        .send({ ...TEMPLATE, id: 'erc20-hold' })
        .expect(409);
      const rows = await audit('template', 'acme-supply');
      expect(rows).to.have.length(1);
      expect(rows[0]).to.deep.include({ action: 'create', before: null });
      expect(rows[0].after).to.deep.equal(created.body);
    });

    it('PATCH and PUT change a written template, DELETE removes it; built-in ones are refused with a 409 saying why', async function () {
      await h.request().patch('/v4/templates/acme-supply').send({ name: 'x' }).expect(401);
      await h.request().delete('/v4/templates/acme-supply').set('Cookie', cookie).expect(403);
      const patched = await h
        .request()
        .patch('/v4/templates/acme-supply')
        .set(BO)
        .send({ name: 'Lend on Acme', icon: 'https://icons.example.org/t.svg' })
        .expect(200);
      expect(patched.body).to.deep.include({
        id: 'acme-supply',
        name: 'Lend on Acme',
        icon: 'https://icons.example.org/t.svg',
        description: TEMPLATE.description,
        action: 'LEND',
      });
      const put = await h.request().put('/v4/templates/acme-supply/').set(BO).send({ action: 'HOLD' }).expect(200);
      expect(put.body).to.include({ name: 'Lend on Acme', action: 'HOLD' });
      expect((await h.request().get('/v4/templates/acme-supply').expect(200)).body).to.deep.equal(put.body);
      expect(
        fieldsOf(
          await h.request().patch('/v4/templates/acme-supply').set(BO).send({ protocolId: 'nope-x' }).expect(400),
        ),
      ).to.deep.equal(['protocolId']);
      expect(
        fieldsOf(await h.request().patch('/v4/templates/acme-supply').set(BO).send({}).expect(400)),
      ).to.have.length(1);

      const builtIn = await h.request().patch('/v4/templates/erc20-hold').set(BO).send({ name: 'x' }).expect(409);
      expect(builtIn.body.detail).to.match(/built in/);
      const undeletable = await h.request().delete('/v4/templates/erc20-hold').set(BO).expect(409);
      expect(undeletable.body.detail).to.match(/built in.*cannot be deleted/);
      await h.request().patch('/v4/templates/no-such-template').set(BO).send({ name: 'x' }).expect(404);

      const deleted = await h.request().delete('/v4/templates/acme-supply').set(BO).expect(200);
      expect(deleted.body).to.deep.equal(put.body);
      await h.request().get('/v4/templates/acme-supply').expect(404);
      await h.request().delete('/v4/templates/acme-supply').set(BO).expect(404);
      expect(await ids()).not.to.include('acme-supply');
      expect(await ids()).to.include('erc20-hold');

      const rows = await audit('template', 'acme-supply');
      expect(rows.map((r) => r.action)).to.deep.equal(['create', 'update', 'update', 'delete']);
      expect(rows[1].before).to.include({ name: TEMPLATE.name });
      expect(rows[1].after).to.include({ name: 'Lend on Acme' });
      expect(rows[3]).to.deep.include({ after: null });
      expect(rows[3].before).to.deep.equal(put.body);
      expect(await audit('template', 'erc20-hold')).to.deep.equal([]);
    });
  });
});
