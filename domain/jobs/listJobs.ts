import { effectiveCron } from './effectiveCron.js';
import { jobAttention, type Attention } from './jobAttention.js';
import { loadJobStatuses, unitRun, type JobChainStatus, type JobStatus } from './jobStatus.js';
import { JOB_CATALOG } from './catalog.js';
import { scheduleTimes } from './nextRuns.js';
import type { JobInfo } from './types.js';
import type { Config } from '../../internal/config.js';
import type { PgPool } from '../../internal/pg.js';
import type { JobDeps } from './types.js';

/** Deadline of each chain's head request (the blocks job's lag is measured against the node). */
const RPC_TIMEOUT_MS = 2000;

/** A chain's latest block as its node reports it (number and chain time, unix seconds). */
export type RpcHead = { number: number; timestamp: number };

export type JobListing = {
  name: string;
  description: string;
  schedule: string;
  scheduleSource: string;
  /** Next tick of the schedule the scheduler uses (ISO); null while paused (its ticks are skipped). */
  nextRunAt: string | null;
  state: 'active' | 'paused';
  pausedAt: string | null;
  /** `skipReason`: why a 'skipped' run did nothing (e.g. its source is not configured), else null. */
  lastRun: {
    status: string;
    startedAt: string;
    durationMs: number | null;
    error: string | null;
    skipReason: string | null;
  } | null;
  lastSuccessAt: string | null;
  /** Seconds since the last success (the age of what the job last wrote); null before one. */
  sinceLastSuccessSeconds: number | null;
  /** Whether the job advances a block cursor per chain (its lag is then counted in blocks and chain seconds). */
  blockCursor: boolean;
  /** Why the job has no lag in blocks, when it advances no block cursor. */
  lagNote: string | null;
  /** What needs an operator first (failing, lagging, paused, never run, ok) and why. */
  attention: Attention;
  errors24h: number;
  runs24h: number;
  chains: {
    chainId: number;
    /** null before the unit completed a first range. */
    cursor: number | null;
    head: number | null;
    lagBlocks: number | null;
    /**
     * With a block cursor: chain seconds between the head block and the cursor block. Without one:
     * seconds since the unit's last run succeeded. null when unknown; `lagNote` says why.
     */
    lagSeconds: number | null;
    /** Why lagBlocks or lagSeconds is null (no cursor, head unknown, header not stored). */
    lagNote: string | null;
    /** Latest run of the job on this chain (its work unit), ISO times. */
    lastRun: {
      status: string;
      startedAt: string;
      finishedAt: string | null;
      error: string | null;
      skipReason: string | null;
    } | null;
    /** Failed runs on this chain since its last success (the scheduler backs off while above 0). */
    consecutiveFailures: number;
  }[];
};

type ChainLag = { head: number | null; lagBlocks: number | null; lagSeconds: number | null; lagNote: string | null };

/** Pure: a chain's lag for a job that advances a block cursor, or why it is unknown. */
function cursorLag(job: JobInfo, c: JobChainStatus, rpcHead: RpcHead | null | undefined): ChainLag {
  const isBlocks = job.name === 'blocks';
  const head = isBlocks ? (rpcHead?.number ?? null) : c.canonicalHead;
  const headTime = isBlocks ? (rpcHead?.timestamp ?? null) : c.canonicalHeadTimestamp;
  const lagBlocks = head === null || c.cursor === null ? null : Math.max(0, head - c.cursor);
  const lagSeconds = headTime === null || c.cursorTimestamp === null ? null : Math.max(0, headTime - c.cursorTimestamp);
  const lagNote =
    c.cursor === null
      ? 'no block range completed on this chain yet'
      : head === null
        ? isBlocks
          ? "the chain's RPC did not answer"
          : 'no canonical headers yet (blocks job)'
        : lagSeconds === null
          ? 'the header of the cursor block is not stored'
          : null;
  return { head, lagBlocks, lagSeconds, lagNote };
}

/** Pure: a chain's "lag" for a job without block cursor: the age of the unit's last success. */
function ageLag(job: JobInfo, c: JobChainStatus, now: Date): ChainLag {
  const ok = c.lastRun?.status === 'success' && c.lastRun.finishedAt;
  return {
    head: null,
    lagBlocks: null,
    lagSeconds: ok ? Math.max(0, Math.round((now.getTime() - c.lastRun!.finishedAt!.getTime()) / 1000)) : null,
    lagNote: `no block lag: ${job.noBlockLag}`,
  };
}

/**
 * Pure: the listing of one job from its catalog entry, status, env schedules and chain heads (RPC,
 * for the blocks job), as of `now`.
 */
export function toJobListing(
  job: JobInfo,
  status: JobStatus | undefined,
  envSchedules: Record<string, string>,
  rpcHeads: ReadonlyMap<number, RpcHead | null>,
  now = new Date(),
): JobListing {
  const { cron, source } = effectiveCron({
    stateCron: status?.cronOverride,
    envCron: envSchedules[job.name],
    defaultCron: job.defaultCron,
  });
  const times = scheduleTimes(cron);
  const paused = status?.paused ?? false;
  const chains = (status?.chains ?? []).map((c) => ({
    chainId: c.chainId,
    cursor: c.cursor,
    ...(job.noBlockLag ? ageLag(job, c, now) : cursorLag(job, c, rpcHeads.get(c.chainId))),
    lastRun: unitRun(c.lastRun),
    consecutiveFailures: c.consecutiveFailures,
  }));
  const lastSuccessAt = status?.lastSuccessAt ?? null;
  return {
    name: job.name,
    description: job.description,
    schedule: cron,
    scheduleSource: source,
    nextRunAt: paused ? null : (times?.nextRunAt.toISOString() ?? null),
    state: paused ? 'paused' : 'active',
    pausedAt: status?.pausedAt?.toISOString() ?? null,
    lastRun: status?.lastRun
      ? {
          status: status.lastRun.status,
          startedAt: status.lastRun.startedAt.toISOString(),
          durationMs: status.lastRun.durationMs,
          error: status.lastRun.error,
          skipReason: status.lastRun.skipReason,
        }
      : null,
    lastSuccessAt: lastSuccessAt?.toISOString() ?? null,
    sinceLastSuccessSeconds: lastSuccessAt
      ? Math.max(0, Math.round((now.getTime() - lastSuccessAt.getTime()) / 1000))
      : null,
    blockCursor: !job.noBlockLag,
    lagNote: job.noBlockLag ? `no block lag: ${job.noBlockLag}` : null,
    attention: jobAttention({
      paused,
      lastRun: status?.lastRun ?? null,
      lastSuccessAt,
      chains,
      blockCursor: !job.noBlockLag,
      intervalMs: times?.intervalMs ?? null,
      now,
    }),
    errors24h: status?.errors24h ?? 0,
    runs24h: status?.runs24h ?? 0,
    chains,
  };
}

export type LoadJobListingsParams = { config: Pick<Config, 'schedules'>; pg: PgPool; rpc: JobDeps['rpc'] };

/**
 * Every job's listing (what `list` prints and the back-office jobs route serves): statuses
 * from PostgreSQL, each chain's latest block from its node within RPC_TIMEOUT_MS (null when it does not answer).
 * Tables: job_runs, job_state, cursors, blocks.
 */
export async function loadJobListings({ config, pg, rpc }: LoadJobListingsParams): Promise<JobListing[]> {
  const statuses = new Map(
    (
      await loadJobStatuses(
        pg,
        JOB_CATALOG.map((j) => j.name),
      )
    ).map((s) => [s.job, s]),
  );
  const heads = new Map(
    await Promise.all(
      [...rpc.values()].map(
        async ({ chain, client }) => [chain.id, await headWithin(client.getBlock({ blockTag: 'latest' }))] as const,
      ),
    ),
  );
  const now = new Date();
  return JOB_CATALOG.map((job) => toJobListing(job, statuses.get(job.name), config.schedules, heads, now));
}

async function headWithin(request: Promise<{ number: bigint; timestamp: bigint }>): Promise<RpcHead | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), RPC_TIMEOUT_MS);
  });
  try {
    const head = await Promise.race([request, timeout]);
    return head === null ? null : { number: Number(head.number), timestamp: Number(head.timestamp) };
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}
