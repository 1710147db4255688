import { expect } from 'chai';
import { createCampaigns, encodeErc20CampaignData, getLatestTimestamp } from '../../../contracts/actions.js';
import { publishSearch } from '../../../jobs/publishSearch.js';
import { runJob } from '../../../jobs/runJob.js';
import { syncCampaigns } from '../../../jobs/syncCampaigns.js';
import { createEsClient, indexNames } from '../../../internal/es.js';
import { startBackgroundProjector } from '../../../indexer/project/backgroundProjector.js';
import { claimOutbox, outboxHighWater } from '../../../domain/projection/outbox.js';
import { enqueueOutbox } from '../../../domain/tables/outbox.js';
import { eventually } from '../../helpers/eventually.js';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { backendPid, blockedOnLock } from '../../helpers/lockWaits.js';
import supertest from 'supertest';

describe('search outbox while Elasticsearch is unreachable', function () {
  let h: Harness;
  /** A client for an address where nothing listens: Elasticsearch "down" for this process only. */
  const deadEs = createEsClient({ node: 'http://127.0.0.1:9', requestTimeoutMs: 500 });

  before(async function () {
    h = await createHarness({ chainIds: [31337] });
    const { devnet, stack } = h.chains[0]!;
    const now = await getLatestTimestamp({ rpcUrl: devnet.rpcUrl });
    await createCampaigns({
      rpcUrl: devnet.rpcUrl,
      chainId: devnet.chainId,
      stack,
      campaigns: [0, 1, 2, 3, 4].map((i) => ({
        rewardToken: stack.tokens.rewards[0]!.address,
        amount: 10n ** 18n,
        campaignType: 1,
        startTimestamp: now + i,
        duration: 86_400,
        campaignData: encodeErc20CampaignData({ targetToken: stack.tokens.targets[0]!.address }),
      })),
    });
    await h.runJob('blocks');
  });

  after(async () => {
    await deadEs.close();
    await h?.close();
  });

  it('keeps PostgreSQL work and grows the outbox, then drains it when Elasticsearch is back', async function () {
    let failure: unknown;
    await runJob(syncCampaigns, { ...h.deps, es: deadEs }).catch((e) => (failure = e));
    expect(failure, 'the job fails loudly').to.be.instanceOf(Error);
    const count = async (sql: string) => Number((await h.apiPg.query<{ n: string }>(sql)).rows[0]!.n);
    expect(await count('SELECT count(*) AS n FROM campaigns')).to.equal(5);
    expect(await count(`SELECT count(DISTINCT entity_id) AS n FROM search_outbox WHERE entity = 'campaign'`)).to.equal(
      5,
    );
    expect(
      await count(`SELECT count(DISTINCT entity_id) AS n FROM search_outbox WHERE entity = 'opportunity'`),
    ).to.equal(1);
    const { rows } = await h.apiPg.query<{ status: string; error: string }>(
      `SELECT status, error FROM job_runs WHERE job = 'campaigns'`,
    );
    expect(rows).to.have.length(1);
    expect(rows[0]!.status).to.equal('failed');

    const result = await runJob(publishSearch, h.deps);
    expect(result.status).to.equal('success');
    expect(await count('SELECT count(*) AS n FROM search_outbox')).to.equal(0);
    await h.refresh();
    const search = await h.deps.es.count({ index: indexNames(h.config.esIndexPrefix, 'campaigns').read });
    expect(search.count).to.equal(5);
    const opportunities = await h.deps.es.count({ index: indexNames(h.config.esIndexPrefix, 'opportunities').read });
    expect(opportunities.count).to.equal(1);
  });

  it('claims with a batch the later entries of the same entities, so one rebuild covers them; another projector gets the rest', async () => {
    await h.deps.pg.query('DELETE FROM search_outbox');
    const a = await h.deps.pg.connect();
    const b = await h.deps.pg.connect();
    try {
      await a.query('BEGIN');
      await enqueueOutbox(a, 'opportunity', ['o1']);
      await enqueueOutbox(a, 'campaign', ['c1', 'c2']);
      await enqueueOutbox(a, 'opportunity', ['o1', 'o2']);
      await enqueueOutbox(a, 'campaign', ['c3', 'c1']);
      await a.query('COMMIT');
      await a.query('BEGIN');
      const claimed = await claimOutbox(a, 2); // the head: o1, c1, and their later entries
      expect(claimed.map((e) => `${e.entity}:${e.entityId}`).sort()).to.deep.equal([
        'campaign:c1',
        'campaign:c1',
        'opportunity:o1',
        'opportunity:o1',
      ]);
      await b.query('BEGIN');
      const rest = await claimOutbox(b, 10);
      expect(rest.map((e) => `${e.entity}:${e.entityId}`).sort()).to.deep.equal([
        'campaign:c2',
        'campaign:c3',
        'opportunity:o2',
      ]);
    } finally {
      await a.query('ROLLBACK');
      await b.query('ROLLBACK');
      a.release();
      b.release();
      await h.deps.pg.query('DELETE FROM search_outbox');
    }
  });

  it('makes a projector that claimed a newer entry of a document another is building wait for it (the older build never lands last)', async () => {
    await h.deps.pg.query('DELETE FROM search_outbox');
    const a = await h.deps.pg.connect();
    const b = await h.deps.pg.connect();
    try {
      await enqueueOutbox(h.deps.pg, 'campaign', ['x', 'y']);
      await a.query('BEGIN');
      const first = await claimOutbox(a, 1); // x, being built by a
      expect(first.map((e) => e.entityId)).to.deep.equal(['x']);
      await enqueueOutbox(h.deps.pg, 'campaign', ['x']); // x changes again meanwhile
      await b.query('BEGIN');
      const bPid = await backendPid(b);
      let claimedByB: string[] | undefined;
      const second = claimOutbox(b, 10).then((entries) => (claimedByB = entries.map((e) => e.entityId).sort()));
      await blockedOnLock(h.deps.pg, bPid, 'b waiting for the lock a holds on x');
      expect(claimedByB, 'b waits while a builds x').to.equal(undefined);
      await a.query('COMMIT');
      await second;
      expect(claimedByB, 'then b builds x (from what a committed and later) and y').to.deep.equal(['x', 'y']);
    } finally {
      await a.query('ROLLBACK').catch(() => undefined);
      await b.query('ROLLBACK');
      a.release();
      b.release();
      await h.deps.pg.query('DELETE FROM search_outbox');
    }
  });

  it('claims only the entries after a mark (a job publishing its own writes ahead of an older backlog)', async () => {
    await h.deps.pg.query('DELETE FROM search_outbox');
    const client = await h.deps.pg.connect();
    try {
      await enqueueOutbox(client, 'campaign', ['old1', 'old2']);
      const mark = await outboxHighWater(client);
      await enqueueOutbox(client, 'campaign', ['mine']);
      await client.query('BEGIN');
      const claimed = await claimOutbox(client, 10, { afterId: mark });
      expect(claimed.map((e) => e.entityId)).to.deep.equal(['mine']);
      await client.query('ROLLBACK');
      expect(await outboxHighWater(client)).to.be.greaterThan(mark);
    } finally {
      client.release();
      await h.deps.pg.query('DELETE FROM search_outbox');
    }
  });

  it('projects in the background while its writer goes on: entries committed during a drain are drained too, an older backlog is left, a failure surfaces at the end', async () => {
    await h.deps.pg.query('DELETE FROM search_outbox');
    const pending = async () =>
      (await h.deps.pg.query<{ entity_id: string }>('SELECT entity_id FROM search_outbox ORDER BY id')).rows.map(
        (r) => r.entity_id,
      );
    try {
      await enqueueOutbox(h.deps.pg, 'campaign', ['backlog']);
      const mark = await outboxHighWater(h.deps.pg);
      // Ids without rows: each drain writes their deletes (a 404 is success), which counts them.
      const projector = startBackgroundProjector({ ...h.deps, afterId: mark });
      await enqueueOutbox(h.deps.pg, 'opportunity', ['gone-opportunity']);
      for (let i = 0; i < 5; i++) {
        await enqueueOutbox(h.deps.pg, 'campaign', [`gone-${i}`]);
        projector.poke();
        await new Promise((resolve) => setTimeout(resolve, i * 20));
      }
      // While the writer goes on, only campaign documents are projected; the opportunity waits for the end.
      await eventually(async () => !(await pending()).some((id) => /^gone-\d/.test(id)), {
        timeoutMs: 10_000,
        what: 'the campaign entries drained',
      });
      expect(await pending()).to.deep.equal(['backlog', 'gone-opportunity']);
      const { deleted } = await projector.finish();
      expect(deleted, 'five campaigns and the opportunity').to.equal(6);
      expect(await pending(), 'only the backlog before the mark waits').to.deep.equal(['backlog']);

      const failing = startBackgroundProjector({ ...h.deps, es: deadEs, afterId: mark });
      await enqueueOutbox(h.deps.pg, 'campaign', ['later']);
      failing.poke();
      failing.poke();
      let failure: unknown;
      await failing.finish().catch((e) => (failure = e));
      expect(failure, 'the drain failure is thrown by finish').to.be.instanceOf(Error);
      expect(await pending(), 'nothing lost: the failed batch rolled back').to.deep.equal(['backlog', 'later']);
    } finally {
      await h.deps.pg.query('DELETE FROM search_outbox');
    }
  });

  it('answers 503 problem bodies, not 500, when the API cannot reach Elasticsearch', async function () {
    const app = h.createApp({ es: deadEs });
    const started = Date.now();
    const res = await supertest(app.callback()).get('/v4/campaigns').expect(503);
    expect(Date.now() - started).to.be.below(5000);
    expect(res.headers['content-type']).to.match(/^application\/problem\+json/);
    expect(res.body).to.include({ status: 503, code: 'SERVICE_UNAVAILABLE', service: 'elasticsearch' });
    const health = await supertest(app.callback()).get('/v4/health').expect(503);
    expect(health.body.status).to.equal('degraded');
    expect(health.body.elasticsearch.ok).to.equal(false);
    expect(health.body.postgres.ok).to.equal(true);
  });
});
