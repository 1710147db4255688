import { collectDefaultMetrics, Gauge, Registry, Summary } from 'prom-client';
import { ATTENTION_KINDS } from '../../reads/attention.js';
import { ATTENTION_ORDER } from '../../../domain/jobs/jobAttention.js';
import type { MetricsSnapshot } from './collectMetrics.js';
import { RUN_STATUSES } from '../../../domain/jobs/types.js';

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
 * series) with prom-client's default process metrics (CPU, memory, heap, handles, GC, event-loop lag:
 * `process_*`, `nodejs_*`) and every gauge of the operators' metrics; `update` replaces all values of
 * the latter from a snapshot.
 */
export function createMetricsRegistry(): MetricsRegistry {
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry });
  const gauge = <L extends string>(name: string, help: string, labelNames: L[]) =>
    new Gauge<L>({ name: `${PREFIX}${name}`, help, labelNames, registers });
  const g = {
    lastSuccess: gauge('job_last_success_timestamp_seconds', 'Unix time the job last finished successfully.', ['job']),
    lastStatus: gauge(
      'job_last_run_status',
      "Status of the job's latest run: 1 on the current status (success, failed, running or skipped: nothing configured to do).",
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
    dependencyUp: gauge(
      'dependency_up',
      "1 when the dependency answered the scrape's probe within 2 s: PostgreSQL (SELECT 1), Elasticsearch (cluster health), each chain's RPC (latest block, chain_id set).",
      ['dependency', 'chain_id'],
    ),
    dependencyLatency: gauge(
      'dependency_probe_seconds',
      "How long the scrape's probe of the dependency took (up to its 2 s deadline).",
      ['dependency', 'chain_id'],
    ),
    attention: gauge(
      'job_attention',
      "1 on the job's attention status as its card on /ops shows it (failing, lagging, paused, never-run, ok), 0 on the others.",
      ['job', 'status'],
    ),
    lagSeconds: gauge(
      'job_lag_seconds',
      "Chain seconds between the head block and the block of the job's cursor on the chain (jobs with a block cursor; as on /ops).",
      ['job', 'chain_id'],
    ),
    attentionItems: gauge(
      'attention_items',
      'Items of the /ops "Needs attention" list, per kind (dependency, degraded, failing, lagging, paused): 0 in every kind is the page\'s "Nothing".',
      ['kind'],
    ),
    healthDegraded: gauge(
      'health_degraded',
      "1 while /v4/health's status is degraded (a dependency down, or LIVE campaigns without a fresh reward-token price).",
      [],
    ),
    unpricedCampaigns: gauge(
      'unpriced_live_campaigns',
      'LIVE public campaigns whose reward token has no fresh price (their figures count it as 0).',
      [],
    ),
    unpricedTokens: gauge(
      'unpriced_reward_tokens',
      'Reward tokens of LIVE public campaigns without a fresh price.',
      [],
    ),
    stalePrices: gauge('prices_stale', 'Tracked token prices older than PRICE_MAX_AGE_SECONDS.', []),
    unknownTvl: gauge(
      'opportunities_unknown_tvl',
      'Opportunities with a LIVE campaign whose TVL could not be read, per reason (tvlRecord.status).',
      ['status'],
    ),
    webhooks: gauge('webhooks', 'Webhooks per state (enabled, disabled).', ['state']),
    webhookBacklog: gauge(
      'webhook_backlog_events',
      'Event-log entries enabled webhooks have still to examine (head − cursor, summed over webhooks).',
      [],
    ),
    webhookOldest: gauge(
      'webhook_oldest_pending_age_seconds',
      'Age of the oldest event an enabled webhook has not got past (0 when none is behind).',
      [],
    ),
    webhookRetrying: gauge(
      'webhooks_retrying',
      'Enabled webhooks whose next event failed at least once (retried with backoff).',
      [],
    ),
    webhookDeliveries: gauge(
      'webhook_deliveries_15m',
      'Webhook delivery attempts of the last 15 minutes, per result (delivered, failed).',
      ['result'],
    ),
    openStreams: gauge('event_streams_open', 'Server-Sent Event streams (/v4/events) open in this process.', []),
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
      for (const d of s.dependencies) {
        const labels = { dependency: d.dependency, ...(d.chainId === null ? {} : { chain_id: String(d.chainId) }) };
        g.dependencyUp.set(labels, d.up ? 1 : 0);
        g.dependencyLatency.set(labels, d.latencyMs / 1000);
      }
      for (const kind of ATTENTION_KINDS)
        g.attentionItems.set({ kind }, s.attention.filter((i) => i.kind === kind).length);
      g.healthDegraded.set(s.healthDegraded ? 1 : 0);
      g.openStreams.set(s.openStreams);
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
      if (!s.db) {
        freshness.setComputed({ quantiles: [], sum: 0, count: 0 });
        return;
      }
      for (const job of s.db.jobs) {
        const labels = { job: job.name };
        if (job.lastSuccessAt) g.lastSuccess.set(labels, Date.parse(job.lastSuccessAt) / 1000);
        if (job.lastRun) {
          for (const status of RUN_STATUSES)
            g.lastStatus.set({ ...labels, status }, job.lastRun.status === status ? 1 : 0);
          if (job.lastRun.durationMs !== null) g.lastDuration.set(labels, job.lastRun.durationMs / 1000);
        }
        for (const status of ATTENTION_ORDER)
          g.attention.set({ ...labels, status }, job.attention.status === status ? 1 : 0);
        g.runs.set(labels, job.runs24h);
        g.errors.set(labels, job.errors24h);
        g.paused.set(labels, job.state === 'paused' ? 1 : 0);
        for (const c of job.chains) {
          const chainLabels = { ...labels, chain_id: String(c.chainId) };
          g.unitFailures.set(chainLabels, c.consecutiveFailures);
          if (c.cursor === null) continue;
          g.cursor.set(chainLabels, c.cursor);
          if (c.lagBlocks !== null) g.lag.set(chainLabels, c.lagBlocks);
          if (job.blockCursor && c.lagSeconds !== null) g.lagSeconds.set(chainLabels, c.lagSeconds);
        }
      }
      const { prices, unknownTvl } = s.db.pipeline;
      g.unpricedCampaigns.set(prices.unpricedLiveCampaigns.campaigns);
      g.unpricedTokens.set(prices.unpricedLiveCampaigns.tokens.length);
      g.stalePrices.set(prices.stale);
      for (const r of unknownTvl.byStatus) g.unknownTvl.set({ status: r.status }, r.opportunities);
      const w = s.db.webhooks;
      g.webhooks.set({ state: 'enabled' }, w.enabled);
      g.webhooks.set({ state: 'disabled' }, w.disabled);
      g.webhookBacklog.set(w.backlogEvents);
      g.webhookOldest.set(w.oldestPendingAgeSeconds);
      g.webhookRetrying.set(w.retrying);
      g.webhookDeliveries.set({ result: 'delivered' }, w.delivered);
      g.webhookDeliveries.set({ result: 'failed' }, w.failed);
      g.outboxDepth.set(s.db.outbox.depth);
      g.outboxAge.set(s.db.outbox.oldestAgeSeconds ?? 0);
      freshness.setComputed({
        quantiles: [
          [0.5, s.db.freshness.p50Seconds],
          [0.95, s.db.freshness.p95Seconds],
        ],
        sum: s.db.freshness.sumSeconds,
        count: s.db.freshness.samples,
      });
    },
  };
}
