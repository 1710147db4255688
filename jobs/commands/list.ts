import { effectiveCron } from '../effectiveCron.js';
import { loadJobStatuses, type JobStatus } from '../jobStatus.js';
import { JOBS } from '../registry.js';
import type { Job } from '../types.js';
import type { Config } from '../../internal/config.js';
import type { PgPool } from '../../internal/pg.js';
import type { JobDeps } from '../types.js';
import type { Command, CommandContext } from './types.js';

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
  chains: { chainId: number; cursor: number; head: number | null; lagBlocks: number | null }[];
};

/** Pure: the listing of one job from its registry entry, status, env schedules and chain heads (RPC, for the blocks job). */
export function toJobListing(job: Job, status: JobStatus | undefined, envSchedules: Record<string, string>, rpcHeads: ReadonlyMap<number, number | null>): JobListing {
  const { cron, source } = effectiveCron({ stateCron: status?.cronOverride, envCron: envSchedules[job.name], defaultCron: job.defaultCron });
  return {
    name: job.name,
    description: job.description,
    schedule: cron,
    scheduleSource: source,
    state: status?.paused ? 'paused' : 'active',
    pausedAt: status?.pausedAt?.toISOString() ?? null,
    lastRun: status?.lastRun ? { status: status.lastRun.status, startedAt: status.lastRun.startedAt.toISOString(), durationMs: status.lastRun.durationMs, error: status.lastRun.error } : null,
    lastSuccessAt: status?.lastSuccessAt?.toISOString() ?? null,
    errors24h: status?.errors24h ?? 0,
    runs24h: status?.runs24h ?? 0,
    chains: (status?.chains ?? []).map((c) => {
      const head = job.name === 'blocks' ? rpcHeads.get(c.chainId) ?? null : c.canonicalHead;
      return { chainId: c.chainId, cursor: c.cursor, head, lagBlocks: head === null ? null : Math.max(0, head - c.cursor) };
    }),
  };
}

const time = (iso: string | null) => (iso ? iso.replace(/\.\d{3}Z$/, 'Z') : 'never');

/** Pure: the human table of `list`. */
export function formatJobListings(listings: JobListing[]): string[] {
  const header = ['JOB', 'SCHEDULE', 'STATE', 'LAST RUN', 'LAST SUCCESS', 'ERRORS 24H'];
  const rows = listings.map((l) => [
    l.name,
    `${l.schedule} (${l.scheduleSource})`,
    l.state,
    l.lastRun ? `${l.lastRun.status} ${time(l.lastRun.startedAt)}${l.lastRun.durationMs === null ? '' : ` ${(l.lastRun.durationMs / 1000).toFixed(2)}s`}` : 'never',
    time(l.lastSuccessAt),
    `${l.errors24h}/${l.runs24h} runs`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  const out = [line(header)];
  listings.forEach((l, i) => {
    out.push(line(rows[i]!));
    for (const c of l.chains) out.push(`  chain ${c.chainId}: cursor ${c.cursor}, head ${c.head ?? '?'}, lag ${c.lagBlocks ?? '?'} blocks`);
    if (l.lastRun?.status === 'failed' && l.lastRun.error) out.push(`  last error: ${l.lastRun.error}`);
  });
  return out;
}

/**
 * `list [--json]`: every job with its effective schedule (and where it comes from), state, last run
 * (status, start, duration), last success, errors in 24 h, and per chain the lag: canonical head
 * (blocks cursor) − cursor; for the blocks job, the node's head − cursor.
 */
export const listCommand: Command = {
  usage: 'list [--json]',
  async run(ctx: CommandContext, args: string[]) {
    const listings = await loadJobListings({ config: ctx.config, pg: ctx.deps.pg, rpc: ctx.deps.rpc });
    if (args.includes('--json')) ctx.out(JSON.stringify(listings, null, 2));
    else for (const line of formatJobListings(listings)) ctx.out(line);
    return 0;
  },
};

export type LoadJobListingsParams = { config: Pick<Config, 'schedules'>; pg: PgPool; rpc: JobDeps['rpc'] };

/**
 * Every registered job's listing (what `list` prints and the back-office jobs route serves): statuses
 * from PostgreSQL, each chain's head from its node within RPC_TIMEOUT_MS (null when it does not answer).
 * Tables: job_runs, job_state, cursors.
 */
export async function loadJobListings({ config, pg, rpc }: LoadJobListingsParams): Promise<JobListing[]> {
  const statuses = new Map((await loadJobStatuses(pg, JOBS.map((j) => j.name))).map((s) => [s.job, s]));
  const heads = new Map(await Promise.all([...rpc.values()].map(async ({ chain, client }) => [chain.id, await headWithin(client.getBlockNumber())] as const)));
  return JOBS.map((job) => toJobListing(job, statuses.get(job.name), config.schedules, heads));
}

async function headWithin(request: Promise<bigint>): Promise<number | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => { timer = setTimeout(() => resolve(null), RPC_TIMEOUT_MS); });
  try {
    const head = await Promise.race([request, timeout]);
    return head === null ? null : Number(head);
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}
