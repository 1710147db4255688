import { loadFreshness, type Freshness } from '../../reads/freshness.js';
import { loadWebhookBacklog, type WebhookBacklog } from '../../reads/webhookBacklog.js';
import { needsAttention, type AttentionItem, healthStatus } from '../../reads/attention.js';
import { outboxDepth } from '../../../domain/tables/outbox.js';
import { JOB_CATALOG } from '../../../domain/jobs/catalog.js';
import type { JobInfo } from '../../../domain/jobs/types.js';
import { loadJobStatuses } from '../../../domain/jobs/jobStatus.js';
import { toJobListing, type JobListing, type RpcHead } from '../../../domain/jobs/listJobs.js';
import { describeError } from '../../../internal/errors.js';
import type { ReadReplicaStatus } from '../../../internal/readReplica.js';
import { loadPipelineFacts, type PipelineFacts } from '../../reads/health/pipeline.js';
import { probeDependencies } from '../../reads/internal-dependencies/probeDependencies.js';
import { streamSlotsOf } from '../../reads/events/streamSlots.js';
import type { ApiDeps } from '../../deps.js';

/** The schedule given a job outside the catalog: once a year, so it is never overdue. */
const UNSCHEDULED_CRON = '0 0 0 1 1 *';
const jobInfoOf = (name: string) => JOB_CATALOG.find((j) => j.name === name);

export type ChainSnapshot = { chainId: number; head: number | null; canonicalHead: number | null };

/** One dependency probe of the scrape (PostgreSQL, Elasticsearch, a chain's RPC), each within 2 s. */
export type DependencySnapshot = {
  dependency: 'postgres' | 'elasticsearch' | 'rpc';
  chainId: number | null;
  up: boolean;
  latencyMs: number;
};

/** What PostgreSQL tells a scrape; absent when it did not answer (then only `up` says so). */
export type DatabaseSnapshot = {
  /** Every job as its card on /ops shows it (domain/jobs/listJobs.ts toJobListing): lag, attention. */
  jobs: JobListing[];
  outbox: { depth: number; oldestAgeSeconds: number | null };
  freshness: Freshness;
  pipeline: PipelineFacts;
  webhooks: WebhookBacklog;
};

/** Everything one scrape exposes, read at scrape time. */
export type MetricsSnapshot = {
  dependencies: DependencySnapshot[];
  chains: ChainSnapshot[];
  db: DatabaseSnapshot | null;
  /** What the /ops page lists under "Needs attention" (api/reads/attention.ts), from the same facts. */
  attention: AttentionItem[];
  /** /v4/health's status from the same facts: degraded when a dependency is down or LIVE campaigns are unpriced. */
  healthDegraded: boolean;
  /** Server-Sent Event streams open in this app (/v4/events). */
  openStreams: number;
  /** The read replica's state in this process (absent without DATABASE_READ_URL). */
  replica?: ReadReplicaStatus;
};

/**
 * Reads the metrics of one scrape: each dependency probed within 2 s (the probes of
 * /v4/internal/dependencies), then, when PostgreSQL answered, jobs, cursors, outbox, freshness,
 * prices, TVL and webhook delivery from it as aggregates (bounded, indexed queries, so the values
 * are right whichever process runs the jobs). PostgreSQL down is a scrape with
 * `rewards_dependency_up{dependency="postgres"} 0`, not a failed scrape.
 * Tables: job_runs, job_state, cursors, blocks, search_outbox, campaign_first_publications, campaigns,
 * token_prices, campaign_metrics, campaigns_current, tokens, opportunity_metrics, reward_trees,
 * webhooks, webhook_cursors, events, webhook_deliveries.
 */
export async function collectMetrics(deps: ApiDeps): Promise<MetricsSnapshot> {
  const probed = await probeDependencies(deps);
  const heads = new Map<number, RpcHead | null>(
    probed.chains.map((c) => [
      c.id,
      c.rpc.ok && c.rpc.head != null && c.rpc.headTimestamp != null
        ? { number: c.rpc.head, timestamp: c.rpc.headTimestamp }
        : null,
    ]),
  );
  const db = probed.postgres.ok
    ? await loadDatabaseSnapshot(deps, heads).catch((error: unknown) => {
        deps.logger.warn({ msg: 'metrics: PostgreSQL reads failed', err: describeError(error) });
        return null;
      })
    : null;
  const canonical = new Map(
    (db?.jobs.find((j) => j.name === 'blocks')?.chains ?? []).map((c) => [c.chainId, c.cursor]),
  );
  const facts = db?.pipeline.prices ?? null;
  return {
    dependencies: [
      { dependency: 'postgres', chainId: null, up: probed.postgres.ok, latencyMs: probed.postgres.latencyMs },
      {
        dependency: 'elasticsearch',
        chainId: null,
        up: probed.elasticsearch.ok,
        latencyMs: probed.elasticsearch.latencyMs,
      },
      ...probed.chains.map((c) => ({
        dependency: 'rpc' as const,
        chainId: c.id,
        up: c.rpc.ok,
        latencyMs: c.rpc.latencyMs,
      })),
    ],
    chains: probed.chains.map((c) => ({
      chainId: c.id,
      head: heads.get(c.id)?.number ?? null,
      canonicalHead: canonical.get(c.id) ?? null,
    })),
    db,
    attention: needsAttention({ dependencies: probed, health: facts, jobs: db?.jobs ?? [] }),
    healthDegraded: healthStatus(probed, facts).status === 'degraded',
    openStreams: streamSlotsOf(deps).open(),
    ...(deps.readPg ? { replica: deps.readPg.status() } : {}),
  };
}

async function loadDatabaseSnapshot(
  deps: ApiDeps,
  heads: ReadonlyMap<number, RpcHead | null>,
): Promise<DatabaseSnapshot> {
  const [statuses, outbox, freshness, pipeline, webhooks] = await Promise.all([
    loadJobStatuses(deps.pg),
    outboxDepth(deps.pg),
    loadFreshness(deps.pg),
    loadPipelineFacts(deps.pg, deps.config.prices.maxAgeSeconds),
    loadWebhookBacklog(deps.pg),
  ]);
  const byName = new Map(statuses.map((s) => [s.job, s]));
  // A job outside the catalog that has runs (a script's, run by name) keeps its series: no schedule of
  // its own, so it is never overdue, only failing when its last run failed.
  const jobs: JobInfo[] = [
    ...JOB_CATALOG,
    ...statuses
      .filter((s) => !jobInfoOf(s.job))
      .map((s) => ({ name: s.job, description: 'not a scheduled job', defaultCron: UNSCHEDULED_CRON })),
  ];
  const now = new Date();
  return {
    jobs: jobs.map((job) => toJobListing(job, byName.get(job.name), deps.config.schedules, heads, now)),
    outbox,
    freshness,
    pipeline,
    webhooks,
  };
}
