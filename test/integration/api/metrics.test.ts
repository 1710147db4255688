import { METRICS_SHARED_MS } from '../../../api/routes/metrics/handlers.js';
import { expect } from 'chai';
import { mine } from '../../../contracts/actions.js';
import { setJobPaused } from '../../../domain/jobs/jobState.js';
import { runJob } from '../../../jobs/runJob.js';
import type { Job } from '../../../domain/jobs/types.js';
import { createPgPool } from '../../../internal/pg.js';
import { eventually } from '../../helpers/eventually.js';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { seedCampaigns } from '../../helpers/seedCampaigns.js';
import supertest from 'supertest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWebhook } from '../../../api/routes/webhooks/repo.js';
import { appendEvents } from '../../../domain/tables/events.js';
import { openStream } from '../../helpers/sseClient.js';
import { readFileSync } from 'node:fs';
import { load } from 'js-yaml';
import { promqlMetricNames } from '../../helpers/promqlNames.js';

/** Parses the Prometheus text format into `name{labels}` → value, checking each sample line's shape. */
function parseMetrics(text: string): { values: Map<string, number>; types: Map<string, string> } {
  const values = new Map<string, number>();
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (!line) continue;
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) types.set(type[1]!, type[2]!);
    if (line.startsWith('#')) continue;
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*(?:\{[^}]*\})?) (\S+)$/.exec(line);
    if (!sample) throw new Error(`not a sample line: ${line}`);
    values.set(sample[1]!, Number(sample[2]));
  }
  return { values, types };
}

describe('GET /metrics (Prometheus, collected from PostgreSQL on scrape)', function () {
  let h: Harness;
  let seeded: string[] = [];
  const broken: Job = {
    name: 'broken',
    description: 'always fails',
    defaultCron: '* * * * *',
    run: async () => {
      throw new Error('rpc said no');
    },
  };

  let lastScrape = 0;
  /** A scrape of a new collection: one collection answers every scrape for METRICS_SHARED_MS. */
  const scrape = async () => {
    const wait = lastScrape + METRICS_SHARED_MS + 50 - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const res = await h.request().get('/metrics').expect(200);
    lastScrape = Date.now();
    expect(res.headers['content-type']).to.equal('text/plain; version=0.0.4; charset=utf-8');
    return parseMetrics(res.text);
  };

  before(async function () {
    h = await createHarness({ chainIds: [31337] });
    ({ ids: seeded } = await seedCampaigns({ chain: h.chains[0]!, perTx: 3, txs: 2 }));
    for (const job of ['blocks', 'campaigns', 'publish']) expect((await h.runJob(job)).status, job).to.equal('success');
    await runJob(broken, h.deps).catch(() => {});
    await setJobPaused(h.deps.pg, 'publish', true);
  });

  after(async () => h?.close());

  it('exposes per-job, per-chain, outbox and freshness series with plausible values', async function () {
    const { values, types } = await scrape();
    const now = Date.now() / 1000;
    const lastSuccess = values.get('rewards_job_last_success_timestamp_seconds{job="campaigns"}')!;
    expect(lastSuccess).to.be.within(now - 120, now + 1);
    expect(values.get('rewards_job_last_run_status{job="campaigns",status="success"}')).to.equal(1);
    expect(values.get('rewards_job_last_run_status{job="broken",status="failed"}')).to.equal(1);
    expect(values.get('rewards_job_last_run_duration_seconds{job="campaigns"}')).to.be.within(0, 60);
    expect(values.get('rewards_job_runs_24h{job="campaigns"}')).to.equal(1);
    expect(values.get('rewards_job_errors_24h{job="campaigns"}')).to.equal(0);
    expect(values.get('rewards_job_errors_24h{job="broken"}')).to.equal(1);
    expect(values.get('rewards_job_paused{job="publish"}')).to.equal(1);
    expect(values.get('rewards_job_paused{job="campaigns"}')).to.equal(0);

    const head = Number(await h.deps.rpc.get(31337)!.client.getBlockNumber());
    expect(values.get('rewards_chain_head_block{chain_id="31337"}')).to.equal(head);
    expect(values.get('rewards_chain_rpc_up{chain_id="31337"}')).to.equal(1);
    expect(values.get('rewards_chain_canonical_head_block{chain_id="31337"}')).to.equal(head);
    expect(values.get('rewards_job_lag_blocks{job="campaigns",chain_id="31337"}')).to.equal(0);
    expect(values.get('rewards_job_lag_blocks{job="blocks",chain_id="31337"}')).to.equal(0);
    expect(values.get('rewards_job_cursor_block{job="campaigns",chain_id="31337"}')).to.equal(head);

    expect(values.get('rewards_search_outbox_depth')).to.equal(0);
    expect(values.get('rewards_search_outbox_oldest_age_seconds')).to.equal(0);
    expect(types.get('rewards_search_freshness_seconds')).to.equal('summary');
    expect(values.get('rewards_search_freshness_seconds_count')).to.equal(seeded.length);
    const p50 = values.get('rewards_search_freshness_seconds{quantile="0.5"}')!;
    const p95 = values.get('rewards_search_freshness_seconds{quantile="0.95"}')!;
    expect(p50).to.be.within(0, 120);
    expect(p95).to.be.within(p50, 120);
    expect(values.get('rewards_search_freshness_seconds_sum')).to.be.within(
      p50 * seeded.length * 0.5 - 1,
      p95 * seeded.length + 1,
    );
  });

  it('follows the database: lag grows with new blocks, the outbox depth with queued entries', async function () {
    await mine({ rpcUrl: h.chains[0]!.devnet.rpcUrl, blocks: 5 });
    expect((await h.runJob('blocks')).status).to.equal('success');
    await h.deps.pg.query(`INSERT INTO search_outbox (entity, entity_id) VALUES ('campaign', $1)`, [seeded[0]]);
    const { values } = await scrape();
    expect(values.get('rewards_job_lag_blocks{job="campaigns",chain_id="31337"}')).to.equal(5);
    expect(values.get('rewards_search_outbox_depth')).to.equal(1);
    expect(values.get('rewards_search_outbox_oldest_age_seconds')).to.be.within(0, 30);
  });

  it('counts first publications only once: re-projecting a campaign leaves freshness alone', async function () {
    await setJobPaused(h.deps.pg, 'publish', false);
    expect((await h.runJob('publish')).status).to.equal('success');
    const { values } = await scrape();
    expect(values.get('rewards_search_freshness_seconds_count')).to.equal(seeded.length);
  });

  it('computes freshness p50/p95 in PostgreSQL from block time to first publication', async function () {
    const { rows } = await h.deps.pg.query<{ n: string }>(
      `SELECT count(*) AS n FROM campaign_first_publications WHERE published_at BETWEEN now() - interval '5 minutes' AND now()`,
    );
    expect(Number(rows[0]!.n), 'the projector stamped every campaign it published first').to.equal(seeded.length);
    // Devnet block times run ahead of the wall clock (clamped to 0 above); pin known delays instead: 10, 20, … 60 s.
    await h.deps.pg.query(`UPDATE campaigns c SET created_at = k.published_at - make_interval(secs => 10 * k.n)
      FROM (SELECT campaign_db_id AS id, published_at, row_number() OVER (ORDER BY campaign_db_id) AS n
            FROM campaign_first_publications) k WHERE k.id = c.id`);
    const { values } = await scrape();
    expect(values.get('rewards_search_freshness_seconds{quantile="0.5"}')).to.be.closeTo(35, 1e-6);
    expect(values.get('rewards_search_freshness_seconds{quantile="0.95"}')).to.be.closeTo(57.5, 1e-6);
    expect(values.get('rewards_search_freshness_seconds_sum')).to.be.closeTo(210, 1e-6);
    const health = await h.request().get('/v4/health').expect(200);
    expect(health.body.freshness).to.deep.equal({
      windowSeconds: 86_400,
      samples: 6,
      p50Seconds: 35,
      p95Seconds: 57.5,
      clockAheadSamples: 0,
    });
    // A block time ahead of the publication (a devnet's clock) is timed from when the campaign was indexed, and said.
    await h.deps.pg.query(`UPDATE campaigns c SET created_at = k.published_at + interval '1 hour',
        indexed_at = k.published_at - interval '70 seconds'
      FROM (SELECT campaign_db_id AS id, published_at FROM campaign_first_publications ORDER BY campaign_db_id LIMIT 1) k
      WHERE k.id = c.id`);
    // The health view answers from one computation for 1 s: an app of its own computes it now.
    const ahead = (await supertest(h.createApp().callback()).get('/v4/health').expect(200)).body.freshness;
    expect(ahead.clockAheadSamples).to.equal(1);
    // 10 s became 70 s: the sum grows by 60 s (a scrape too may answer from a collection made just before).
    await eventually(
      async () => expect((await scrape()).values.get('rewards_search_freshness_seconds_sum')).to.be.closeTo(270, 1e-6),
      { timeoutMs: 10_000, what: 'the freshness sum of a new collection' },
    );
  });

  it('answers 50 concurrent scrapes and half a second of repeated ones with one collection', async function () {
    // Counts the API's queries on its real pool: what a collection costs.
    let queries = 0;
    const pool = h.apiPg;
    const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
    pool.query = ((...args: unknown[]) => ((queries += 1), query(...args))) as typeof pool.query;
    try {
      // An app of its own on a clock the test moves: each move of METRICS_SHARED_MS is a new collection.
      let clock = Math.floor(Date.now() / 1000);
      const app = h.createApp({ now: () => clock });
      const get = () => supertest(app.callback()).get('/metrics').expect(200);
      await get();
      const perCollection = queries;
      expect(perCollection, 'PostgreSQL queries of one collection').to.be.above(0);
      clock += (METRICS_SHARED_MS + 50) / 1000;
      await get();
      queries = 0;
      // 50 at once, then one every 50 ms of the app's clock for half of METRICS_SHARED_MS.
      await Promise.all(Array.from({ length: 50 }, get));
      for (let t = 0; t < METRICS_SHARED_MS / 2; t += 50, clock += 0.05) await get();
      expect(queries, 'queries of the burst').to.equal(0);
    } finally {
      pool.query = query as typeof pool.query;
    }
  });

  it('serves every scrape within a second one body, HTTP series included: one serialization a second (#43 F7)', async function () {
    // An app of its own (its first scrape starts a new body), on a clock the test moves.
    let now = Math.floor(Date.now() / 1000);
    const app = h.createApp({ now: () => now });
    const client = () => supertest(app.callback());
    const first = await client().get('/metrics').expect(200);
    await client().get('/v4/chains').expect(200);
    now += (METRICS_SHARED_MS - 1) / 1000;
    const [again, concurrent] = await Promise.all([client().get('/metrics'), client().get('/metrics')]);
    expect(again.text, 'a scrape within the second: the same bytes').to.equal(first.text);
    expect(concurrent.text).to.equal(first.text);
    expect(first.text).not.to.include('route="/v4/chains"');
    // The next second's body sees the requests before it.
    now += 2 / 1000;
    const later = await client().get('/metrics').expect(200);
    expect(later.text).to.include('route="/v4/chains"');
  });

  it("is rate-limited like /v4/health: one client's burst of scrapes gets its limit, the rest 429 (#43 F7)", async function () {
    const limits = { anonymous: 3, tiers: [5, 5, 5] };
    const app = h.createApp({ config: { ...h.config, rateLimits: limits } as typeof h.config });
    await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 5));
    const start = Date.now();
    const responses = await Promise.all(Array.from({ length: 50 }, () => supertest(app.callback()).get('/metrics')));
    const windows = Math.floor(Date.now() / 1000) - Math.floor(start / 1000) + 1;
    const served = responses.filter((r) => r.status === 200).length;
    expect(served, `served of 50 in ${windows} window(s)`).to.be.within(1, limits.anonymous * windows);
    const refused = responses.filter((r) => r.status === 429);
    expect(refused).to.have.length(50 - served);
    expect(refused[0]!.headers).to.include({ 'ratelimit-limit': String(limits.anonymous), 'ratelimit-remaining': '0' });
    expect(refused[0]!.headers).to.have.property('retry-after');
    // The liveness probe is still never limited.
    await supertest(app.callback()).get('/v4/health/live').expect(200);
  });

  it('asks for METRICS_TOKEN (or the back-office token) when it is set: 401 without it (#43 F7)', async function () {
    const token = `metrics-${'t'.repeat(32)}`;
    const app = h.createApp({ config: { ...h.config, metricsToken: token } as typeof h.config });
    const client = () => supertest(app.callback());
    const missing = await client().get('/metrics').expect(401);
    expect(missing.body).to.include({ code: 'UNAUTHORIZED' });
    expect(missing.body.detail).to.match(/METRICS_TOKEN/);
    await client().get('/metrics').set('authorization', `Bearer ${token}x`).expect(401);
    const scraped = await client().get('/metrics').set('authorization', `Bearer ${token}`).expect(200);
    expect(scraped.text).to.include('rewards_search_outbox_depth');
    await client().get('/metrics').set('authorization', h.config.backOfficeToken!).expect(200);
  });

  it('is served at the root only, from a registry of each app', async function () {
    await h.request().get('/v4/metrics').expect(404);
    const other = h.createApp();
    const [a, b] = await Promise.all([
      supertest(other.callback()).get('/metrics').expect(200),
      h.request().get('/metrics').expect(200),
    ]);
    expect(parseMetrics(a.text).values.get('rewards_search_outbox_depth')).to.equal(
      parseMetrics(b.text).values.get('rewards_search_outbox_depth'),
    );
  });

  it('still answers when PostgreSQL is unreachable, saying so in rewards_dependency_up (#44)', async function () {
    const deadPg = createPgPool({
      connectionString: 'postgres://postgres@127.0.0.1:9/none',
      applicationName: 'test-dead',
    });
    try {
      const app = h.createApp({ pg: deadPg });
      const { values } = parseMetrics((await supertest(app.callback()).get('/metrics').expect(200)).text);
      expect(values.get('rewards_dependency_up{dependency="postgres"}')).to.equal(0);
      expect(values.get('rewards_dependency_up{dependency="elasticsearch"}')).to.equal(1);
      expect(values.get('rewards_dependency_up{dependency="rpc",chain_id="31337"}')).to.equal(1);
      expect(values.get('rewards_attention_items{kind="dependency"}')).to.equal(1);
      expect(values.get('rewards_health_degraded')).to.equal(1);
      // No stale figures from PostgreSQL: its series are absent.
      expect([...values.keys()].some((k) => k.startsWith('rewards_job_'))).to.equal(false);
    } finally {
      await deadPg.end();
    }
  });

  it('exposes dependencies, webhook backlog, open event streams, unpriced campaigns and process metrics (#44)', async function () {
    // No price source: the metrics run leaves the LIVE campaigns' reward token unpriced (as /v4/health says).
    for (const job of ['tokens', 'metrics']) expect((await h.runJob(job)).status, job).to.equal('success');
    const health = (await h.request().get('/v4/health').expect(200)).body;
    // A webhook whose cursor is at the head, then three events it has not examined yet.
    await createWebhook(
      h.deps.pg,
      '0x00000000000000000000000000000000000000aa',
      { url: 'https://hooks.example.test/in', secret: `whsec_${Buffer.alloc(24, 1).toString('base64')}` },
      10,
    );
    await appendEvents(
      h.deps.pg,
      Array.from({ length: 3 }, () => ({ type: 'campaign.changed' as const, chainId: 31337, payload: {} })),
    );
    // One open event stream on the app that serves the scrapes.
    const server = http.createServer(h.app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const stream = openStream((server.address() as AddressInfo).port, '/v4/events?after=latest');
    try {
      await stream.ready;
      expect(stream.status, 'the stream is served').to.equal(200);
      lastScrape = Date.now(); // a collection that starts after all of the above (earlier tests scraped this app too)
      const { values, types } = await scrape();
      expect(values.get('rewards_dependency_up{dependency="postgres"}')).to.equal(1);
      expect(values.get('rewards_dependency_up{dependency="elasticsearch"}')).to.equal(1);
      expect(values.get('rewards_dependency_up{dependency="rpc",chain_id="31337"}')).to.equal(1);
      expect(values.get('rewards_dependency_probe_seconds{dependency="postgres"}')).to.be.within(0, 2);
      expect(values.get('rewards_event_streams_open')).to.equal(1);
      expect(values.get('rewards_webhooks{state="enabled"}')).to.equal(1);
      expect(values.get('rewards_webhook_backlog_events')).to.equal(3);
      expect(values.get('rewards_webhook_oldest_pending_age_seconds')).to.be.within(0, 120);
      expect(values.get('rewards_webhooks_retrying')).to.equal(0);
      expect(values.get('rewards_webhook_deliveries_15m{result="failed"}')).to.equal(0);
      expect(health.prices.unpricedLiveCampaigns.campaigns).to.equal(seeded.length);
      expect(values.get('rewards_unpriced_live_campaigns')).to.equal(seeded.length);
      expect(values.get('rewards_unpriced_reward_tokens')).to.equal(1);
      expect(values.get('rewards_health_degraded')).to.equal(1);
      expect(values.get('rewards_attention_items{kind="degraded"}')).to.equal(1);
      expect(values.get('rewards_job_attention{job="campaigns",status="ok"}')).to.equal(1);
      expect(values.get('rewards_job_attention{job="broken",status="failing"}')).to.equal(1);
      expect(types.get('nodejs_eventloop_lag_seconds')).to.equal('gauge');
      expect(values.get('nodejs_eventloop_lag_seconds')).to.be.at.least(0);
      expect(types.get('process_cpu_user_seconds_total')).to.equal('counter');
    } finally {
      stream.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    // The stream's slot is given back: the next collection counts none.
    await eventually(async () => (await scrape()).values.get('rewards_event_streams_open') === 0, {
      timeoutMs: 60_000,
      what: 'no stream open in a new collection',
    });
  });

  it('counts HTTP requests and their durations by method, route template and status code, never by raw path', async function () {
    // An app of its own, so its series hold exactly the requests below.
    const app = h.createApp();
    const client = () => supertest(app.callback());
    await client().get(`/v4/campaigns/${seeded[0]}`).expect(200);
    await client().get(`/v4/campaigns/${seeded[1]}`).expect(200);
    await client().get('/v4/campaigns/not-an-id').expect(400);
    await client().get('/v4/chains').expect(200);
    await client().get('/v4/internal/jobs').expect(401); // refused by the route's guard: still its template
    await client().get(`/v4/no-such-family/${seeded[0]}`).expect(404);
    const res = await client().get('/metrics').expect(200);
    const { values, types } = parseMetrics(res.text);
    const one = (name: string, labels: Record<string, string>) => {
      const found = [...values].filter(
        ([key]) => key.startsWith(`${name}{`) && Object.entries(labels).every(([k, v]) => key.includes(`${k}="${v}"`)),
      );
      expect(found, `${name} ${JSON.stringify(labels)}`).to.have.length(1);
      return found[0]![1];
    };
    expect(types.get('http_requests_total')).to.equal('counter');
    expect(types.get('http_request_duration_seconds')).to.equal('histogram');
    const byId = { method: 'GET', route: '/v4/campaigns/:id' };
    expect(one('http_requests_total', { ...byId, status_code: '200' })).to.equal(2);
    expect(one('http_requests_total', { ...byId, status_code: '400' })).to.equal(1);
    expect(one('http_requests_total', { method: 'GET', route: '/v4/chains', status_code: '200' })).to.equal(1);
    expect(one('http_requests_total', { method: 'GET', route: '/v4/internal/jobs', status_code: '401' })).to.equal(1);
    expect(one('http_requests_total', { method: 'GET', route: 'unmatched', status_code: '404' })).to.equal(1);
    expect(one('http_request_duration_seconds_count', { ...byId, status_code: '200' })).to.equal(2);
    expect(one('http_request_duration_seconds_bucket', { ...byId, status_code: '200', le: '+Inf' })).to.equal(2);
    expect(one('http_request_duration_seconds_bucket', { ...byId, status_code: '200', le: '10' })).to.equal(2);
    expect(one('http_request_duration_seconds_sum', { ...byId, status_code: '200' })).to.be.within(0, 20);
    // Ids never become label values: one series per template, whatever the ids requested.
    for (const id of seeded.slice(0, 2)) expect(res.text).not.to.include(id);
    expect(res.text).not.to.include('no-such-family');
    expect(res.text).not.to.include('not-an-id');
  });

  it('alerts: every metric name deploy/alerts.yml uses is exposed by /metrics (#44)', async function () {
    type Rule = {
      alert?: string;
      expr?: string;
      for?: string;
      labels?: { severity?: string };
      annotations?: { summary?: string };
    };
    const file = load(readFileSync('deploy/alerts.yml', 'utf8')) as { groups: { name: string; rules: Rule[] }[] };
    const rules = file.groups.flatMap((g) => g.rules);
    expect(rules.length, 'alerts in the file').to.be.at.least(15);
    // Names exposed by a real scrape: every family's TYPE line (a family without samples still has one) and sample names.
    const text = (await h.request().get('/metrics').expect(200)).text;
    const exposed = new Set([
      ...[...text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]!),
      ...[...text.matchAll(/^([a-zA-Z_:][a-zA-Z0-9_:]*)[{ ]/gm)].map((m) => m[1]!),
    ]);
    /** Prometheus' own series of each target, not in any /metrics body. */
    const synthetic = new Set(['up']);
    const used = new Set<string>();
    for (const rule of rules) {
      expect(rule.alert, 'each rule is an alert').to.be.a('string');
      expect(rule.labels?.severity, `${rule.alert}: severity`).to.be.oneOf(['page', 'warn', 'info']);
      expect(rule.annotations?.summary, `${rule.alert}: summary`).to.be.a('string');
      const names = promqlMetricNames(String(rule.expr));
      expect(names, `${rule.alert}: reads a metric`).not.to.be.empty;
      for (const name of names) {
        used.add(name);
        expect(
          synthetic.has(name) || exposed.has(name),
          `${rule.alert} uses ${name}, which /metrics does not expose`,
        ).to.equal(true);
      }
    }
    // What the on-call needs is alerted on: dependencies, failing and lagging jobs, webhook backlog, event loop, prices.
    expect([...used]).to.include.members([
      'rewards_dependency_up',
      'rewards_job_attention',
      'rewards_job_lag_seconds',
      'rewards_webhook_backlog_events',
      'nodejs_eventloop_lag_p99_seconds',
      'rewards_unpriced_live_campaigns',
      'rewards_opportunities_unknown_tvl',
    ]);
    // The check itself catches a misspelt name.
    expect(promqlMetricNames('rewards_dependecy_up == 0').every((n) => exposed.has(n))).to.equal(false);
  });
});
