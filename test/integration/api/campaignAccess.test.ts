import { expect } from 'chai';
import supertest from 'supertest';
import { signSession } from '../../../api/identity/jwt.js';
import { buildDocuments } from '../../../domain/projection/buildDocuments.js';
import { claimOutbox, outboxHighWater } from '../../../domain/projection/outbox.js';
import { bulkWrite } from '../../../domain/projection/publish.js';
import { INLINE_PUBLISH_BATCHES } from '../../../domain/projection/publishNow.js';
import { enqueueOutbox } from '../../../domain/tables/outbox.js';
import { createEsClient, indexNames } from '../../../internal/es.js';
import { eventually } from '../../helpers/eventually.js';
import { backendPid } from '../../helpers/lockWaits.js';
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
  describe('a privacy change reaches search reads before it answers (one writer path: the projector)', () => {
    /** Older entries than the inline publish of a back-office write takes (INLINE_PUBLISH_BATCHES batches). */
    const backlogSize = () => INLINE_PUBLISH_BATCHES * h.config.indexer.publishBatch + 1;
    const backlogIds = () => Array.from({ length: backlogSize() }, (_, i) => `backlog-${i}`);
    const waiting = async (entity: string, ids: string[]) =>
      (
        await h.deps.pg.query<{ entity_id: string }>(
          'SELECT DISTINCT entity_id FROM search_outbox WHERE entity = $1 AND entity_id = ANY($2::text[]) ORDER BY 1',
          [entity, ids],
        )
      ).rows.map((r) => r.entity_id);
    /** The campaign documents as searches see them (a search, not a get: only what a refresh made searchable). */
    const searched = async (ids: string[]) => {
      const res = await h.deps.es.search<{ isPrivate: boolean; childCampaignIds: string[] }>({
        index: indexNames(h.config.esIndexPrefix, 'campaigns').read,
        query: { ids: { values: ids } },
      });
      return new Map(res.hits.hits.map((hit) => [hit._id!, hit._source!]));
    };
    const setPrivacy = (key: string, isPrivate: boolean) =>
      h
        .request()
        .patch(`/v4/campaigns/${id(key)}/privacy`)
        .set(BACK_OFFICE)
        .send({ isPrivate });

    beforeEach(async () => {
      await h.deps.pg.query('DELETE FROM search_outbox');
      await enqueueOutbox(h.deps.pg, 'campaign', backlogIds());
    });
    afterEach(async () => {
      await h.deps.pg.query('DELETE FROM search_outbox');
      await setPrivacy('c2', false).expect(200);
    });

    it('publishes the campaign and its parent before answering, behind a backlog queued meanwhile and after a projector building the campaign', async function () {
      const [c1, c2] = [id('c1'), id('c2')];
      const meanwhile = backlogIds().map((b) => `meanwhile-${b}`);
      expect(await listIds({}, false), 'c2 is public and listed').to.include(c2);
      const mark = await outboxHighWater(h.deps.pg);
      await enqueueOutbox(h.deps.pg, 'campaign', [c2]);
      const projector = await h.deps.pg.connect();
      const writer = await h.deps.pg.connect();
      /** Resolves once another session (the PATCH's) waits for a lock `holder` holds. */
      const waitsFor = async (holder: typeof projector, what: string) => {
        const pid = await backendPid(holder);
        await eventually(
          async () =>
            (await h.deps.pg.query('SELECT 1 FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))', [pid]))
              .rowCount! > 0,
          { timeoutMs: 1_500, intervalMs: 20, what },
        );
      };
      try {
        // A projector claims c2 (an entry older than the PATCH's) and builds it as it is now, public.
        await projector.query('BEGIN');
        expect((await claimOutbox(projector, 1, { afterId: mark })).map((e) => e.entityId)).to.deep.equal([c2]);
        const chainNames = new Map(h.config.chains.map((c) => [c.id, c.name]));
        const stale = await buildDocuments(projector, 'campaigns', [c2], { chainNames, now: new Date() });
        expect(stale.upserts[0]!.document.isPrivate).to.equal(false);
        // Another writer queues more entries than an inline publish takes, and commits them once the PATCH
        // started (it holds c2's privacy row meanwhile): they sit ahead of the PATCH's own entries.
        await writer.query('BEGIN');
        await enqueueOutbox(writer, 'campaign', meanwhile);
        await writer.query(
          `INSERT INTO campaign_privacy (campaign_db_id, updated_by) VALUES ($1, 'another writer')
           ON CONFLICT (campaign_db_id) DO UPDATE SET updated_by = EXCLUDED.updated_by`,
          [c2],
        );
        let answered = false;
        const patch = setPrivacy('c2', true).then((res) => {
          answered = true;
          return res;
        });
        await waitsFor(writer, "the PATCH waiting for the other writer's row");
        await writer.query('COMMIT');
        // The PATCH committed the change and waits for the projector's lock on c2's document.
        await waitsFor(projector, "the PATCH waiting for the projector's lock on c2");
        expect(answered, 'no answer while another projector builds the document').to.equal(false);
        expect(
          (await h.deps.pg.query('SELECT 1 FROM campaign_privacy WHERE campaign_db_id = $1 AND is_private', [c2]))
            .rowCount,
        ).to.equal(1);
        // The projector's older build lands first; the PATCH builds again after it commits.
        await bulkWrite({
          es: h.deps.es,
          index: indexNames(h.config.esIndexPrefix, 'campaigns').write,
          upserts: stale.upserts,
          refresh: true,
        });
        await projector.query('COMMIT');
        expect((await patch).status).to.equal(200);
      } finally {
        for (const client of [projector, writer]) {
          await client.query('ROLLBACK').catch(() => undefined);
          client.release();
        }
      }
      // No refresh, no job run: searches already serve the change.
      expect(await listIds({}, false), 'an anonymous search').to.not.include(c2);
      const documents = await searched([c1, c2]);
      expect(documents.get(c2)?.isPrivate).to.equal(true);
      expect(documents.get(c1)?.childCampaignIds, "the parent's public children").to.deep.equal([]);
      expect(await waiting('campaign', [c1, c2]), 'their entries were consumed').to.deep.equal([]);
      expect(await waiting('opportunity', [s['c2']!.opportunityId]), 'its opportunity queued').to.deep.equal([
        s['c2']!.opportunityId,
      ]);
      expect(await waiting('campaign', backlogIds()), 'the older backlog left to the publish job').to.have.length(
        backlogSize(),
      );
      expect(await waiting('campaign', meanwhile), 'and the one queued meanwhile').to.have.length(backlogSize());

      // Public again, behind the same backlog: an anonymous search lists it as soon as the PATCH answered,
      // which only the refreshed document can make so (an anonymous query leaves out documents marked private).
      await setPrivacy('c2', false).expect(200);
      expect(await listIds({}, false), 'an anonymous search').to.include(c2);
      expect((await searched([c1])).get(c1)?.childCampaignIds).to.deep.equal([c2]);
    });

    it('keeps the entries it consumed for replay while a reindex is open, as the projector does', async function () {
      const [c1, c2] = [id('c1'), id('c2')];
      const { rows } = await h.deps.pg.query<{ id: string }>(
        `INSERT INTO search_reindexes (index_prefix, family, index_name) VALUES ($1, 'campaigns', $1 || '-campaigns_v9') RETURNING id`,
        [h.config.esIndexPrefix],
      );
      try {
        await setPrivacy('c2', true).expect(200);
        const kept = await h.deps.pg.query<{ entity_id: string }>(
          `SELECT entity_id FROM search_outbox_replay WHERE reindex_id = $1 AND entity = 'campaign' ORDER BY 1`,
          [rows[0]!.id],
        );
        expect(kept.rows.map((r) => r.entity_id)).to.deep.equal([c1, c2].sort());
      } finally {
        await h.deps.pg.query('DELETE FROM search_reindexes WHERE id = $1', [rows[0]!.id]);
      }
    });

    it('answers 503 when Elasticsearch cannot take the documents; the change stays committed and queued for the publish job', async function () {
      const [c1, c2] = [id('c1'), id('c2')];
      const deadEs = createEsClient({ node: 'http://127.0.0.1:9', requestTimeoutMs: 500 });
      try {
        const res = await supertest(h.createApp({ es: deadEs }).callback())
          .patch(`/v4/campaigns/${c2}/privacy`)
          .set(BACK_OFFICE)
          .send({ isPrivate: true })
          .expect(503);
        expect(res.body).to.include({ status: 503, code: 'SERVICE_UNAVAILABLE', service: 'elasticsearch' });
      } finally {
        await deadEs.close();
      }
      const privacy = await h.request().get(`/v4/campaigns/${c2}/privacy`).set(BACK_OFFICE).expect(200);
      expect(privacy.body.isPrivate).to.equal(true);
      expect(await waiting('campaign', [c1, c2]), 'the entries rolled back into the outbox').to.deep.equal(
        [c1, c2].sort(),
      );
      expect((await searched([c2])).get(c2)?.isPrivate, 'the document as it was').to.equal(false);
      expect((await h.runJob('publish')).status).to.equal('success');
      await h.refresh();
      expect((await searched([c2])).get(c2)?.isPrivate, 'published by the publish job').to.equal(true);
    });
  });
});
