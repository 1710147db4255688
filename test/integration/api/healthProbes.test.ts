import { Client } from '@elastic/elasticsearch';
import { expect } from 'chai';
import supertest from 'supertest';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { seedCampaigns } from '../../helpers/seedCampaigns.js';

describe('liveness and readiness probes (issue 16)', function () {
  let h: Harness;
  let base: string;

  before(async function () {
    this.timeout(300_000);
    h = await createHarness({ chainIds: [31337] });
    await seedCampaigns({ chain: h.chains[0]!, perTx: 3, txs: 2 });
    for (const job of ['blocks', 'campaigns', 'publish']) expect((await h.runJob(job)).status, job).to.equal('success');
    await h.refresh();
    base = h.url;
  });
  after(async () => {
    await h?.close();
  });

  it('answers liveness 200 on every probe while 500 concurrent reads saturate the pools', async function () {
    const paths = ['/v4/opportunities?items=100', '/v4/campaigns?items=100', '/v4/health', '/v4/tokens', '/v4/chains'];
    const reads = Array.from({ length: 500 }, (_, i) =>
      fetch(`${base}${paths[i % paths.length]}`)
        .then(async (r) => (await r.arrayBuffer(), r.status))
        .catch(() => 0),
    );
    let done = false;
    const settled = Promise.all(reads).finally(() => (done = true));
    const probes: { status: number; ms: number }[] = [];
    while (!done || probes.length < 5) {
      const started = Date.now();
      const res = await fetch(`${base}/v4/health/live`);
      const body = (await res.json()) as { status: string };
      probes.push({ status: res.status === 200 && body.status === 'ok' ? 200 : res.status, ms: Date.now() - started });
    }
    const statuses = await settled;
    console.log(
      `      ${probes.length} liveness probes during 500 reads: slowest ${Math.max(...probes.map((p) => p.ms))} ms; reads ${JSON.stringify(Object.fromEntries([...new Set(statuses)].map((s) => [s, statuses.filter((x) => x === s).length])))}`,
    );
    expect(
      probes.filter((p) => p.status !== 200),
      'liveness probes not 200',
    ).to.deep.equal([]);
  });

  it('answers readiness 200 with its checks, 503 when Elasticsearch does not answer, while liveness stays 200', async function () {
    const ready = await h.request().get('/v4/health/ready').expect(200);
    expect(ready.body).to.include({ status: 'ok' });
    expect(ready.body.postgres.ok).to.equal(true);
    expect(ready.body.elasticsearch.ok).to.equal(true);
    expect(ready.headers['cache-control']).to.equal('no-store');
    const deadEs = new Client({ node: 'http://127.0.0.1:9', requestTimeout: 500, maxRetries: 0 });
    const app = h.createApp({
      es: deadEs,
    });
    const notReady = await supertest(app.callback()).get('/v4/health/ready').expect(503);
    expect(notReady.body.status).to.equal('unavailable');
    expect(notReady.body.elasticsearch.ok).to.equal(false);
    const live = await supertest(app.callback()).get('/v4/health/live').expect(200);
    expect(live.body.status).to.equal('ok');
    await deadEs.close();
  });

  it('documents both probes in the OpenAPI document', async function () {
    const doc = (await h.request().get('/v4/openapi.json').expect(200)).body as {
      paths: Record<string, { get?: { summary: string } }>;
    };
    expect(doc.paths['/v4/health/live']?.get?.summary).to.match(/^Liveness/);
    expect(doc.paths['/v4/health/ready']?.get?.summary).to.match(/^Readiness/);
  });
});
