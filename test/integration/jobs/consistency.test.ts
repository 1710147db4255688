import { expect } from 'chai';
import { checkConsistency, type ConsistencyReport } from '../../../indexer/project/consistency.js';
import { reindexFamily } from '../../../indexer/project/reindex.js';
import { indexNames } from '../../../internal/es.js';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { seedCampaigns } from '../../helpers/seedCampaigns.js';

describe('indexer/project/consistency: PostgreSQL against Elasticsearch', function () {
  let h: Harness;
  let ids: string[] = [];

  const check = () => checkConsistency({ config: h.config, pg: h.deps.pg, es: h.deps.es, batchSize: 3 });
  const family = (report: ConsistencyReport, name: 'campaigns' | 'opportunities') =>
    report.families.find((f) => f.family === name)!;

  before(async function () {
    h = await createHarness({ chainIds: [31337] });
    ({ ids } = await seedCampaigns({ chain: h.chains[0]!, perTx: 4, txs: 2 }));
    for (const job of ['blocks', 'campaigns']) expect((await h.runJob(job)).status, job).to.equal('success');
    await h.refresh();
  });

  after(async () => h?.close());

  it('is ok right after indexing, with the counts of both sides', async function () {
    const report = await check();
    expect(report.ok).to.equal(true);
    expect(report.outboxDepth).to.equal(0);
    expect(family(report, 'campaigns')).to.deep.include({
      postgres: 8,
      elasticsearch: 8,
      missing: { count: 0, ids: [] },
      extra: { count: 0, ids: [] },
      stale: { count: 0, documents: [] },
    });
    expect(family(report, 'opportunities')).to.deep.include({ postgres: 2, elasticsearch: 2 });
  });

  it('reports a document deleted from Elasticsearch as missing', async function () {
    await h.deps.es.delete({
      index: indexNames(h.config.esIndexPrefix, 'campaigns').write,
      id: ids[0]!,
      refresh: true,
    });
    const report = await check();
    expect(report.ok).to.equal(false);
    expect(family(report, 'campaigns').missing).to.deep.equal({ count: 1, ids: [ids[0]] });
    expect(family(report, 'campaigns').elasticsearch).to.equal(7);
    expect(family(report, 'opportunities').missing.count).to.equal(0);
  });

  it("reports a row changed behind the projector's back as stale, naming the field", async function () {
    await h.deps.pg.query('UPDATE campaigns SET amount = amount + 1 WHERE id = $1', [ids[1]]);
    const { rows } = await h.deps.pg.query<{ amount: string }>('SELECT amount::text FROM campaigns WHERE id = $1', [
      ids[1],
    ]);
    const stale = family(await check(), 'campaigns').stale;
    expect(stale.count).to.equal(1);
    expect(stale.documents[0]!.id).to.equal(ids[1]);
    expect(stale.documents[0]!.differences).to.deep.equal([
      { field: 'amount', expected: rows[0]!.amount, actual: (BigInt(rows[0]!.amount) - 1n).toString() },
    ]);
  });

  it('reports a document PostgreSQL would not build as extra', async function () {
    await h.deps.es.index({
      index: indexNames(h.config.esIndexPrefix, 'campaigns').write,
      id: 'ghost',
      document: { id: 'ghost', campaignId: '0xghost' },
      refresh: true,
    });
    const campaigns = family(await check(), 'campaigns');
    expect(campaigns.extra).to.deep.equal({ count: 1, ids: ['ghost'] });
  });

  it('reports a difference with a pending outbox entry separately, without failing on it', async function () {
    await h.deps.pg.query('UPDATE campaigns SET end_timestamp = end_timestamp + 60 WHERE id = $1', [ids[2]]);
    await h.deps.pg.query(`INSERT INTO search_outbox (entity, entity_id) VALUES ('campaign', $1)`, [ids[2]]);
    const report = await check();
    const campaigns = family(report, 'campaigns');
    expect(campaigns.pending.stale.documents.map((d) => [d.id, d.differences.map((x) => x.field)])).to.deep.equal([
      [ids[2], ['endTimestamp']],
    ]);
    expect(campaigns.stale.documents.map((d) => d.id)).to.deep.equal([ids[1]]);
    expect(report.outboxDepth).to.equal(1);
  });

  it('is ok again after both families are reindexed', async function () {
    for (const f of ['campaigns', 'opportunities'] as const)
      await reindexFamily({ ...h.deps, family: f, deleteDelayMs: 0 });
    const report = await check();
    expect(report.ok, JSON.stringify(report)).to.equal(true);
    expect(family(report, 'campaigns')).to.deep.include({ postgres: 8, elasticsearch: 8 });
    expect(family(report, 'campaigns').pending.stale.count, 'the reindex built the pending change already').to.equal(0);
  });
});
