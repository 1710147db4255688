import { expect } from 'chai';
import { createMetricsRegistry } from '../../../../../api/routes/metrics/createMetricsRegistry.js';
import type { MetricsSnapshot } from '../../../../../api/routes/metrics/collectMetrics.js';

const snapshot: MetricsSnapshot = {
  jobs: [
    {
      job: 'blocks',
      paused: false,
      pausedAt: null,
      cronOverride: null,
      runs24h: 10,
      errors24h: 0,
      lastRun: {
        skipReason: null,
        status: 'success',
        startedAt: new Date(1_000_000),
        finishedAt: new Date(1_001_500),
        durationMs: 1500,
        error: null,
      },
      lastSuccessAt: new Date(1_001_500),
      chains: [
        {
          chainId: 1,
          cursor: 90,
          canonicalHead: 90,
          lagBlocks: 0,
          lastRun: null,
          consecutiveFailures: 0,
          cursorTimestamp: null,
          canonicalHeadTimestamp: null,
        },
      ],
    },
    {
      job: 'campaigns',
      paused: true,
      pausedAt: new Date(0),
      cronOverride: null,
      runs24h: 4,
      errors24h: 2,
      lastRun: {
        skipReason: null,
        status: 'failed',
        startedAt: new Date(2_000_000),
        finishedAt: new Date(2_000_250),
        durationMs: 250,
        error: 'boom',
      },
      lastSuccessAt: null,
      chains: [
        {
          chainId: 1,
          cursor: 80,
          canonicalHead: 90,
          lagBlocks: 10,
          lastRun: null,
          consecutiveFailures: 0,
          cursorTimestamp: null,
          canonicalHeadTimestamp: null,
        },
      ],
    },
  ],
  chains: [
    { chainId: 1, head: 95, canonicalHead: 90 },
    { chainId: 2, head: null, canonicalHead: null },
  ],
  outbox: { depth: 3, oldestAgeSeconds: 4.5 },
  freshness: { windowSeconds: 86400, samples: 4, sumSeconds: 20, p50Seconds: 4, p95Seconds: 9.5 },
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

  it('drops series of a previous scrape that the new snapshot no longer has', async () => {
    const metrics = createMetricsRegistry();
    metrics.update(snapshot);
    metrics.update({ ...snapshot, jobs: snapshot.jobs.slice(0, 1) });
    expect(await metrics.registry.metrics()).not.to.include('job="campaigns"');
  });

  it('keeps registries apart (one per app, never the global one)', async () => {
    const a = createMetricsRegistry();
    const b = createMetricsRegistry();
    a.update(snapshot);
    b.update({ ...snapshot, outbox: { depth: 0, oldestAgeSeconds: null } });
    expect(samples(await a.registry.metrics())).to.include('rewards_search_outbox_depth 3');
    expect(samples(await b.registry.metrics())).to.include('rewards_search_outbox_depth 0');
  });
});
