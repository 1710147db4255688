import { loadFreshness, type Freshness } from '../freshness.js';
import { outboxDepth } from '../../../domain/tables/outbox.js';
import { loadJobStatuses, unitRun, type JobStatus } from '../../../domain/jobs/jobStatus.js';
import { describeError } from '../../../internal/errors.js';
import { loadPipelineFacts } from './pipeline.js';
import { healthStatus } from '../attention.js';
import { probeBlockNumber } from '../../chain/probeHead.js';
import type { ApiDeps } from '../../deps.js';

const CHECK_TIMEOUT_MS = 2000;

type Check<T> = ({ ok: true; latencyMs: number } & T) | { ok: false; latencyMs: number; error: string };

/** Runs one probe with a deadline, reporting latency and the error instead of throwing. */
export async function probe<T extends Record<string, unknown>>(fn: () => Promise<T>): Promise<Check<T>> {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    const value = await Promise.race([
      fn(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
      }),
    ]);
    return { ok: true, latencyMs: Date.now() - started, ...value };
  } catch (error) {
    return { ok: false, latencyMs: Date.now() - started, error: describeError(error).message };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Health of the service: PostgreSQL, Elasticsearch, each chain's RPC (head block), each job's
 * last run, lag in blocks per chain (head − cursor), paused state and runs/errors in the last
 * 24 h, the search outbox depth, and freshness (chain event → searchable document, p50/p95 over
 * campaigns first published in the last 24 h), prices older than PRICE_MAX_AGE_SECONDS, reward
 * trees not verified per chain, and each cursor's lag in chain seconds. `status` is `ok` when every dependency answers
 * and every LIVE campaign's reward token has a fresh price, `degraded` otherwise (a paused job or errors
 * do not degrade it: they are operators' facts); `dependenciesOk` tells the two causes apart and
 * `reasons` says each cause (api/reads/attention.ts healthStatus, which the /ops attention list shares).
 * `prices.unpricedLiveCampaigns` counts and names those campaigns' tokens: their figures count them as 0.
 * `unknownTvl` counts the opportunities with a LIVE campaign whose TVL is unknown, per reason
 * (`tvlRecord.status`, #42); an operator's fact, like a paused job: it does not degrade `status`.
 * `postgresReplica` (null without DATABASE_READ_URL) says where lag-tolerant reads go and why; it never
 * degrades `status`, since the primary answers those reads whenever the replica cannot.
 */
export async function checkHealth(deps: ApiDeps) {
  const [postgres, elasticsearch, chains] = await Promise.all([
    probe(async () => (await deps.pg.query('SELECT 1'), {})),
    probe(async () => {
      const h = await deps.es.cluster.health({ timeout: `${CHECK_TIMEOUT_MS}ms` });
      return { clusterStatus: h.status };
    }),
    Promise.all(
      [...deps.rpc.values()].map(async (chainClient) => ({
        id: chainClient.chain.id,
        name: chainClient.chain.name,
        rpc: await probe(async () => ({ head: await probeBlockNumber(chainClient) })),
      })),
    ),
  ]);
  const [statuses, outbox, freshness, pipeline] = postgres.ok
    ? await Promise.all([
        loadJobStatuses(deps.pg),
        outboxDepth(deps.pg),
        loadFreshness(deps.pg),
        loadPipelineFacts(deps.pg, deps.config.prices.maxAgeSeconds),
      ]).catch(() => [[] as JobStatus[], null, null, null] as const)
    : [[] as JobStatus[], null, null, null];
  const heads = new Map(chains.map((c) => [c.id, c.rpc.ok ? (c.rpc as { head: number }).head : null]));
  const jobs = statuses.map((job) => ({
    name: job.job,
    paused: job.paused,
    pausedAt: job.pausedAt?.toISOString() ?? null,
    runs24h: job.runs24h,
    errors24h: job.errors24h,
    lastRun: job.lastRun
      ? {
          status: job.lastRun.status,
          startedAt: job.lastRun.startedAt.toISOString(),
          finishedAt: job.lastRun.finishedAt?.toISOString() ?? null,
          error: job.lastRun.error,
          skipReason: job.lastRun.skipReason,
        }
      : null,
    lastSuccessAt: job.lastSuccessAt?.toISOString() ?? null,
    lagSeconds: job.lastSuccessAt ? Math.round((Date.now() - job.lastSuccessAt.getTime()) / 1000) : null,
    chains: job.chains.map((c) => {
      const head = heads.get(c.chainId) ?? null;
      return {
        chainId: c.chainId,
        cursor: c.cursor,
        head,
        lagBlocks: head === null || c.cursor === null ? null : Math.max(0, head - c.cursor),
        lagSeconds: pipeline?.cursorAges.get(`${job.job}:${c.chainId}`) ?? null,
        lastRun: unitRun(c.lastRun),
        consecutiveFailures: c.consecutiveFailures,
      };
    }),
  }));
  // The same function as the operations page's attention list (api/reads/attention.ts).
  const { status, dependenciesOk, reasons } = healthStatus(
    { postgres, elasticsearch, chains },
    pipeline?.prices ?? null,
  );
  return {
    status,
    dependenciesOk,
    reasons,
    checkedAt: new Date().toISOString(),
    postgres,
    postgresReplica: deps.readPg?.status() ?? null,
    elasticsearch,
    chains,
    jobs,
    outbox,
    freshness: toFreshnessBody(freshness),
    prices: pipeline?.prices ?? null,
    unverifiedTrees: pipeline?.trees ?? null,
    unknownTvl: pipeline?.unknownTvl ?? null,
  };
}

/** Public shape of freshness (null when PostgreSQL did not answer). */
export function toFreshnessBody(f: Freshness | null) {
  return (
    f && {
      windowSeconds: f.windowSeconds,
      samples: f.samples,
      p50Seconds: round(f.p50Seconds),
      p95Seconds: round(f.p95Seconds),
      clockAheadSamples: f.clockAheadSamples,
    }
  );
}

function round(seconds: number | null): number | null {
  return seconds === null ? null : Math.round(seconds * 1000) / 1000;
}

const STARTED_AT = Date.now();

/**
 * Liveness: the process is up and its event loop turns. No I/O, nothing shared with requests (no
 * pool, no socket), so it stays green under any load the process survives; an orchestrator restarts
 * the process only when this stops answering.
 */
export function checkLiveness() {
  return { status: 'ok' as const, uptimeSeconds: Math.round((Date.now() - STARTED_AT) / 1000), pid: process.pid };
}

/**
 * Readiness: the dependencies every read needs answer (PostgreSQL `SELECT 1`, Elasticsearch
 * cluster health), each within 2 s. RPCs and jobs are not part of it (reads do not need them; see
 * /v4/health). `ready` false takes the instance out of a load balancer, not a restart.
 */
export async function checkReadiness(deps: ApiDeps) {
  const [postgres, elasticsearch] = await Promise.all([
    probe(async () => (await deps.pg.query('SELECT 1'), {})),
    probe(async () => ({ clusterStatus: (await deps.es.cluster.health({ timeout: `${CHECK_TIMEOUT_MS}ms` })).status })),
  ]);
  return {
    status: postgres.ok && elasticsearch.ok ? ('ok' as const) : ('unavailable' as const),
    checkedAt: new Date().toISOString(),
    postgres,
    elasticsearch,
  };
}
