import { effectiveCron } from './effectiveCron.js';
import { loadJobStatuses, unitRun, type JobStatus } from './jobStatus.js';
import { JOB_CATALOG } from './catalog.js';
import type { JobInfo } from './types.js';
import type { Config } from '../../internal/config.js';
import type { PgPool } from '../../internal/pg.js';
import type { JobDeps } from './types.js';

/** Deadline of each chain's head request (the blocks job's lag is measured against the node). */
const RPC_TIMEOUT_MS = 2000;

export type JobListing = {
  name: string;
  description: string;
  schedule: string;
  scheduleSource: string;
  state: 'active' | 'paused';
  pausedAt: string | null;
  lastRun: { status: string; startedAt: string; durationMs: number | null; error: string | null } | null;
  lastSuccessAt: string | null;
  errors24h: number;
  runs24h: number;
  chains: {
    chainId: number;
    /** null before the unit completed a first range. */
    cursor: number | null;
    head: number | null;
    lagBlocks: number | null;
    /** Latest run of the job on this chain (its work unit), ISO times. */
    lastRun: { status: string; startedAt: string; finishedAt: string | null; error: string | null } | null;
    /** Failed runs on this chain since its last success (the scheduler backs off while above 0). */
    consecutiveFailures: number;
  }[];
};

/** Pure: the listing of one job from its catalog entry, status, env schedules and chain heads (RPC, for the blocks job). */
export function toJobListing(
  job: JobInfo,
  status: JobStatus | undefined,
  envSchedules: Record<string, string>,
  rpcHeads: ReadonlyMap<number, number | null>,
): JobListing {
  const { cron, source } = effectiveCron({
    stateCron: status?.cronOverride,
    envCron: envSchedules[job.name],
    defaultCron: job.defaultCron,
  });
  return {
    name: job.name,
    description: job.description,
    schedule: cron,
    scheduleSource: source,
    state: status?.paused ? 'paused' : 'active',
    pausedAt: status?.pausedAt?.toISOString() ?? null,
    lastRun: status?.lastRun
      ? {
          status: status.lastRun.status,
          startedAt: status.lastRun.startedAt.toISOString(),
          durationMs: status.lastRun.durationMs,
          error: status.lastRun.error,
        }
      : null,
    lastSuccessAt: status?.lastSuccessAt?.toISOString() ?? null,
    errors24h: status?.errors24h ?? 0,
    runs24h: status?.runs24h ?? 0,
    chains: (status?.chains ?? []).map((c) => {
      const head = job.name === 'blocks' ? (rpcHeads.get(c.chainId) ?? null) : c.canonicalHead;
      return {
        chainId: c.chainId,
        cursor: c.cursor,
        head,
        lagBlocks: head === null || c.cursor === null ? null : Math.max(0, head - c.cursor),
        lastRun: unitRun(c.lastRun),
        consecutiveFailures: c.consecutiveFailures,
      };
    }),
  };
}

export type LoadJobListingsParams = { config: Pick<Config, 'schedules'>; pg: PgPool; rpc: JobDeps['rpc'] };

/**
 * Every job's listing (what `list` prints and the back-office jobs route serves): statuses
 * from PostgreSQL, each chain's head from its node within RPC_TIMEOUT_MS (null when it does not answer).
 * Tables: job_runs, job_state, cursors.
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
        async ({ chain, client }) => [chain.id, await headWithin(client.getBlockNumber())] as const,
      ),
    ),
  );
  return JOB_CATALOG.map((job) => toJobListing(job, statuses.get(job.name), config.schedules, heads));
}

async function headWithin(request: Promise<bigint>): Promise<number | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), RPC_TIMEOUT_MS);
  });
  try {
    const head = await Promise.race([request, timeout]);
    return head === null ? null : Number(head);
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}
