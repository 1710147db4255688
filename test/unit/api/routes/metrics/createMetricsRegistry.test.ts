import { expect } from 'chai';
import { createMetricsRegistry } from '../../../../../api/routes/metrics/createMetricsRegistry.js';
import type { MetricsSnapshot } from '../../../../../api/routes/metrics/collectMetrics.js';
import type { JobListing } from '../../../../../domain/jobs/listJobs.js';

const listing = (over: Partial<JobListing> & Pick<JobListing, 'name'>): JobListing => ({
  description: '',
  schedule: '*/5 * * * * *',
  scheduleSource: 'default',
  nextRunAt: null,
  state: 'active',
  pausedAt: null,
  lastRun: null,
  lastSuccessAt: null,
  sinceLastSuccessSeconds: null,
  blockCursor: true,
  lagNote: null,
  attention: { status: 'ok', reasons: [] },
  errors24h: 0,
  runs24h: 0,
  chains: [],
  ...over,
});

const chain = (over: Partial<JobListing['chains'][number]>): JobListing['chains'][number] => ({
  chainId: 1,
  cursor: null,
  head: null,
  lagBlocks: null,
  lagSeconds: null,
  lagNote: null,
  lastRun: null,
  consecutiveFailures: 0,
  ...over,
});

const snapshot: MetricsSnapshot = {
  dependencies: [
    { dependency: 'postgres', chainId: null, up: true, latencyMs: 2 },
    { dependency: 'elasticsearch', chainId: null, up: true, latencyMs: 5 },
    { dependency: 'rpc', chainId: 1, up: true, latencyMs: 10 },
    { dependency: 'rpc', chainId: 2, up: false, latencyMs: 2000 },
  ],
  chains: [
    { chainId: 1, head: 95, canonicalHead: 90 },
    { chainId: 2, head: null, canonicalHead: null },
  ],
  attention: [
    { kind: 'dependency', subject: 'rpc:2', text: 'Two RPC unreachable: refused' },
    { kind: 'failing', subject: 'job:campaigns', text: 'campaigns failing: last run failed: boom' },
  ],
  healthDegraded: true,
  openStreams: 3,
  db: {
    jobs: [
      listing({
        name: 'blocks',
        runs24h: 10,
        lastRun: {
          status: 'success',
          startedAt: new Date(1_000_000).toISOString(),
          durationMs: 1500,
          error: null,
          skipReason: null,
        },
        lastSuccessAt: new Date(1_001_500).toISOString(),
        chains: [chain({ cursor: 90, head: 95, lagBlocks: 5, lagSeconds: 60 })],
      }),
      listing({
        name: 'campaigns',
        state: 'paused',
        runs24h: 4,
        errors24h: 2,
        attention: { status: 'failing', reasons: ['last run failed: boom'] },
        lastRun: {
          status: 'failed',
          startedAt: new Date(2_000_000).toISOString(),
          durationMs: 250,
          error: 'boom',
          skipReason: null,
        },
        chains: [chain({ cursor: 80, head: 90, lagBlocks: 10, lagSeconds: 400, consecutiveFailures: 2 })],
      }),
      listing({ name: 'tokens', blockCursor: false, chains: [chain({ lagSeconds: 30 })] }),
    ],
    outbox: { depth: 3, oldestAgeSeconds: 4.5 },
    freshness: {
      windowSeconds: 86400,
      samples: 4,
      sumSeconds: 20,
      p50Seconds: 4,
      p95Seconds: 9.5,
      clockAheadSamples: 0,
    },
    pipeline: {
      prices: {
        tracked: 5,
        stale: 1,
        maxAgeSeconds: 3600,
        oldestAgeSeconds: 4000,
        unpricedLiveCampaigns: {
          campaigns: 16,
          tokens: [
            { id: '1-0xa', chainId: 1, address: '0xa', symbol: 'A', campaigns: 10 },
            { id: '1-0xb', chainId: 1, address: '0xb', symbol: 'B', campaigns: 6 },
          ],
        },
      },
      trees: [],
      unknownTvl: { opportunities: 2, byStatus: [{ status: 'unreadable', opportunities: 2 }] },
      cursorAges: new Map(),
    },
    webhooks: {
      enabled: 4,
      disabled: 1,
      backlogEvents: 120,
      oldestPendingAgeSeconds: 42,
      retrying: 2,
      delivered: 30,
      failed: 5,
    },
  },
};

/** Sample lines of the text format, without comments. */
const samples = (text: string) => text.split('\n').filter((l) => l && !l.startsWith('#'));

describe('api/routes/metrics/createMetricsRegistry', () => {
  it('exposes every job, chain, outbox and freshness series of a snapshot', async () => {
    const metrics = createMetricsRegistry();
    metrics.update(snapshot);
    const lines = samples(await metrics.registry.metrics());
    expect(lines).to.include.members([
      'rewards_job_last_success_timestamp_seconds{job="blocks"} 1001.5',
      'rewards_job_last_run_status{job="campaigns",status="failed"} 1',
      'rewards_job_last_run_status{job="campaigns",status="success"} 0',
      'rewards_job_last_run_duration_seconds{job="blocks"} 1.5',
      'rewards_job_runs_24h{job="blocks"} 10',
      'rewards_job_errors_24h{job="campaigns"} 2',
      'rewards_job_paused{job="campaigns"} 1',
      'rewards_job_paused{job="blocks"} 0',
      'rewards_job_cursor_block{job="campaigns",chain_id="1"} 80',
      'rewards_job_lag_blocks{job="campaigns",chain_id="1"} 10',
      'rewards_job_lag_blocks{job="blocks",chain_id="1"} 5',
      'rewards_chain_head_block{chain_id="1"} 95',
      'rewards_chain_rpc_up{chain_id="2"} 0',
      'rewards_chain_canonical_head_block{chain_id="1"} 90',
      'rewards_search_outbox_depth 3',
      'rewards_search_outbox_oldest_age_seconds 4.5',
      'rewards_search_freshness_seconds{quantile="0.5"} 4',
      'rewards_search_freshness_seconds{quantile="0.95"} 9.5',
      'rewards_search_freshness_seconds_sum 20',
      'rewards_search_freshness_seconds_count 4',
    ]);
    expect(
      lines.some((l) => l.startsWith('rewards_job_last_success_timestamp_seconds{job="campaigns"}')),
      'no success yet: no series',
    ).to.equal(false);
    expect(
      lines.some((l) => l.startsWith('rewards_chain_head_block{chain_id="2"}')),
      'RPC silent: no head',
    ).to.equal(false);
    expect(await metrics.registry.metrics()).to.include('# TYPE rewards_search_freshness_seconds summary');
  });

  it('exposes what an on-call person alerts on: dependencies, job attention and lag, prices, TVL, webhooks, streams (#44)', async () => {
    const metrics = createMetricsRegistry();
    metrics.update(snapshot);
    const lines = samples(await metrics.registry.metrics());
    expect(lines).to.include.members([
      'rewards_dependency_up{dependency="postgres"} 1',
      'rewards_dependency_up{dependency="elasticsearch"} 1',
      'rewards_dependency_up{dependency="rpc",chain_id="1"} 1',
      'rewards_dependency_up{dependency="rpc",chain_id="2"} 0',
      'rewards_dependency_probe_seconds{dependency="rpc",chain_id="2"} 2',
      'rewards_job_attention{job="campaigns",status="failing"} 1',
      'rewards_job_attention{job="campaigns",status="ok"} 0',
      'rewards_job_attention{job="blocks",status="ok"} 1',
      'rewards_job_lag_seconds{job="campaigns",chain_id="1"} 400',
      'rewards_job_chain_consecutive_failures{job="campaigns",chain_id="1"} 2',
      'rewards_attention_items{kind="dependency"} 1',
      'rewards_attention_items{kind="failing"} 1',
      'rewards_attention_items{kind="paused"} 0',
      'rewards_health_degraded 1',
      'rewards_unpriced_live_campaigns 16',
      'rewards_unpriced_reward_tokens 2',
      'rewards_prices_stale 1',
      'rewards_opportunities_unknown_tvl{status="unreadable"} 2',
      'rewards_webhooks{state="enabled"} 4',
      'rewards_webhooks{state="disabled"} 1',
      'rewards_webhook_backlog_events 120',
      'rewards_webhook_oldest_pending_age_seconds 42',
      'rewards_webhooks_retrying 2',
      'rewards_webhook_deliveries_15m{result="delivered"} 30',
      'rewards_webhook_deliveries_15m{result="failed"} 5',
      'rewards_event_streams_open 3',
    ]);
    // A job without block cursor has no lag in chain seconds (its last success says its age).
    expect(lines.some((l) => l.startsWith('rewards_job_lag_seconds{job="tokens"'))).to.equal(false);
    // prom-client's default process metrics, event-loop lag included.
    for (const name of [
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
    ])
      expect(
        lines.some((l) => l.startsWith(name)),
        name,
      ).to.equal(true);
  });

  it('keeps the dependency series and drops the database ones when PostgreSQL did not answer', async () => {
    const metrics = createMetricsRegistry();
    metrics.update(snapshot);
    metrics.update({
      ...snapshot,
      db: null,
      dependencies: [{ dependency: 'postgres', chainId: null, up: false, latencyMs: 2000 }],
    });
    const text = await metrics.registry.metrics();
    expect(samples(text)).to.include('rewards_dependency_up{dependency="postgres"} 0');
    expect(text).not.to.include('rewards_job_paused{');
    expect(text).not.to.include('rewards_webhook_backlog_events 120');
  });

  it('drops series of a previous scrape that the new snapshot no longer has', async () => {
    const metrics = createMetricsRegistry();
    metrics.update(snapshot);
    metrics.update({ ...snapshot, db: { ...snapshot.db!, jobs: snapshot.db!.jobs.slice(0, 1) } });
    expect(await metrics.registry.metrics()).not.to.include('job="campaigns"');
  });

  it('keeps registries apart (one per app, never the global one)', async () => {
    const a = createMetricsRegistry();
    const b = createMetricsRegistry();
    a.update(snapshot);
    b.update({ ...snapshot, db: { ...snapshot.db!, outbox: { depth: 0, oldestAgeSeconds: null } } });
    expect(samples(await a.registry.metrics())).to.include('rewards_search_outbox_depth 3');
    expect(samples(await b.registry.metrics())).to.include('rewards_search_outbox_depth 0');
  });
});
