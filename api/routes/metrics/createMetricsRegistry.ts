import { Gauge, Registry, Summary } from 'prom-client';
import type { MetricsSnapshot } from './collectMetrics.js';
import { RUN_STATUSES } from '../../../jobs/control/types.js';

/** Our metrics share this prefix. */
const PREFIX = 'rewards_';

/**
 * A summary whose quantiles, sum and count are computed elsewhere (by PostgreSQL over recent first
 * publications) instead of from observations in this process.
 */
class PrecomputedSummary extends Summary {
  private computed: { quantiles: [number, number | null][]; sum: number; count: number } = {
    quantiles: [],
    sum: 0,
    count: 0,
  };

  setComputed(computed: PrecomputedSummary['computed']): void {
    this.computed = computed;
  }

  override async get() {
    const base = await super.get(); // name, help, type and aggregator; its values (no observations) are replaced
    const { quantiles, sum, count } = this.computed;
    return {
      ...base,
      values: [
        ...quantiles
          .filter(([, v]) => v !== null)
          .map(([quantile, value]) => ({ labels: { quantile }, value: value! })),
        { metricName: `${base.name}_sum`, labels: {}, value: sum },
        { metricName: `${base.name}_count`, labels: {}, value: count },
      ],
    };
  }
}

export type MetricsRegistry = { registry: Registry; update(snapshot: MetricsSnapshot): void };

/**
 * A registry of its own (never prom-client's global one, so two apps or two tests never share
 * series) with every gauge of the operators' metrics; `update` replaces all values from a snapshot.
 */
export function createMetricsRegistry(): MetricsRegistry {
  const registry = new Registry();
  const registers = [registry];
  const gauge = <L extends string>(name: string, help: string, labelNames: L[]) =>
    new Gauge<L>({ name: `${PREFIX}${name}`, help, labelNames, registers });
  const g = {
    lastSuccess: gauge('job_last_success_timestamp_seconds', 'Unix time the job last finished successfully.', ['job']),
    lastStatus: gauge(
      'job_last_run_status',
      "Status of the job's latest run: 1 on the current status (success, failed, running or skipped).",
      ['job', 'status'],
    ),
    lastDuration: gauge('job_last_run_duration_seconds', "Duration of the job's latest finished run.", ['job']),
    runs: gauge('job_runs_24h', 'Runs of the job started in the last 24 hours.', ['job']),
    errors: gauge('job_errors_24h', 'Failed runs of the job started in the last 24 hours.', ['job']),
    paused: gauge('job_paused', '1 while an operator has paused the job.', ['job']),
    cursor: gauge('job_cursor_block', 'Last block the job processed on the chain.', ['job', 'chain_id']),
    unitFailures: gauge(
      'job_chain_consecutive_failures',
      "Failed runs of the job's unit on the chain since its last success (above 0: the scheduler backs off that chain only).",
      ['job', 'chain_id'],
    ),
    lag: gauge(
      'job_lag_blocks',
      'Blocks the job is behind: canonical head (blocks cursor) − cursor; for the blocks job, chain head (RPC) − cursor.',
      ['job', 'chain_id'],
    ),
    head: gauge(
      'chain_head_block',
      "Latest block number the chain's RPC reports (absent when it did not answer in time).",
      ['chain_id'],
    ),
    canonical: gauge('chain_canonical_head_block', 'Last block of the stored canonical header chain.', ['chain_id']),
    rpcUp: gauge('chain_rpc_up', "1 when the chain's RPC answered the scrape's head request in time.", ['chain_id']),
    replicaServing: gauge(
      'pg_replica_serving_reads',
      '1 while this API process sends lag-tolerant reads to the read replica, 0 while the primary answers them (absent without DATABASE_READ_URL).',
      [],
    ),
    replicaLag: gauge(
      'pg_replica_lag_seconds',
      "The read replica's replay lag at its last check in this process (absent when the check failed).",
      [],
    ),
    replicaRetried: gauge(
      'pg_replica_retried_reads',
      'Reads that failed on the read replica and were answered by the primary since this process started.',
      [],
    ),
    outboxDepth: gauge('search_outbox_depth', 'Search outbox entries waiting for the projector.', []),
    outboxAge: gauge(
      'search_outbox_oldest_age_seconds',
      'Age of the oldest waiting search outbox entry (0 when empty).',
      [],
    ),
  };
  const freshness = new PrecomputedSummary({
    name: `${PREFIX}search_freshness_seconds`,
    help: 'Chain event to searchable document: seconds from a NewCampaign block to the first write of its document, over campaigns first published in the last 24 hours.',
    registers,
  });

  return {
    registry,
    update(s) {
      for (const metric of Object.values(g)) metric.reset();
      for (const job of s.jobs) {
        const labels = { job: job.job };
        if (job.lastSuccessAt) g.lastSuccess.set(labels, job.lastSuccessAt.getTime() / 1000);
        if (job.lastRun) {
          for (const status of RUN_STATUSES)
            g.lastStatus.set({ ...labels, status }, job.lastRun.status === status ? 1 : 0);
          if (job.lastRun.durationMs !== null) g.lastDuration.set(labels, job.lastRun.durationMs / 1000);
        }
        g.runs.set(labels, job.runs24h);
        g.errors.set(labels, job.errors24h);
        g.paused.set(labels, job.paused ? 1 : 0);
        for (const c of job.chains) {
          const chainLabels = { ...labels, chain_id: String(c.chainId) };
          g.unitFailures.set(chainLabels, c.consecutiveFailures);
          if (c.cursor === null) continue;
          g.cursor.set(chainLabels, c.cursor);
          const head =
            job.job === 'blocks' ? (s.chains.find((x) => x.chainId === c.chainId)?.head ?? null) : c.canonicalHead;
          if (head !== null) g.lag.set(chainLabels, Math.max(0, head - c.cursor));
        }
      }
      for (const c of s.chains) {
        const labels = { chain_id: String(c.chainId) };
        g.rpcUp.set(labels, c.head === null ? 0 : 1);
        if (c.head !== null) g.head.set(labels, c.head);
        if (c.canonicalHead !== null) g.canonical.set(labels, c.canonicalHead);
      }
      if (s.replica) {
        g.replicaServing.set(s.replica.serving === 'replica' ? 1 : 0);
        if (s.replica.lagMs !== null) g.replicaLag.set(s.replica.lagMs / 1000);
        g.replicaRetried.set(s.replica.retriedOnPrimary);
      }
      g.outboxDepth.set(s.outbox.depth);
      g.outboxAge.set(s.outbox.oldestAgeSeconds ?? 0);
      freshness.setComputed({
        quantiles: [
          [0.5, s.freshness.p50Seconds],
          [0.95, s.freshness.p95Seconds],
        ],
        sum: s.freshness.sumSeconds,
        count: s.freshness.samples,
      });
    },
  };
}
