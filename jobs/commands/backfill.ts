import { setTimeout as sleep } from 'node:timers/promises';
import { canonicalHead, lockChainForWrite } from '../../indexer/store/chainGuard.js';
import { getCursor } from '../../indexer/store/cursor.js';
import { rollbackChain } from '../../indexer/store/rollback.js';
import { withTransaction, type PgPool } from '../../internal/pg.js';
import { findJob, JOBS } from '../registry.js';
import { JOB_LOCK_NAMESPACE, runJob } from '../runJob.js';
import type { Job } from '../../domain/jobs/types.js';
import { createProgressBar } from './progressBar.js';
import { unknownJob } from './run.js';
import { UsageError, type Command, type CommandContext } from './types.js';

/** How often cursors are read while a job runs, to move the bar. */
const POLL_MS = 250;
/** Runs in a row without progress before giving up. */
const MAX_IDLE_RUNS = 3;

/**
 * `backfill <chainId> <fromBlock> [--jobs a,b]`: re-indexes a chain from `fromBlock` and runs the
 * jobs until they are caught up, with a progress bar on stderr.
 * - Without `blocks` (default: every job with a cursor on the chain except blocks): each job's
 *   cursor moves back to fromBlock − 1 while holding the job's advisory lock (a running run
 *   finishes first, so it cannot move the cursor forward again) and the chain's write lock. Rows
 *   are rewritten by the jobs' idempotent upserts; rows that went missing come back.
 * - With `blocks`: the canonical headers must stay contiguous, so the chain is rolled back like a
 *   reorg (indexer/store/rollback.ts): headers ≥ fromBlock and every chain-derived row above
 *   fromBlock − 1 are deleted (their documents queued for removal), every cursor moves back, and
 *   blocks plus every job that had a cursor on the chain run again. Data above fromBlock is absent
 *   from the API until re-indexed.
 * Tables: cursors (and on rollback: blocks and the chain-derived tables).
 */
export const backfillCommand: Command = {
  usage: 'backfill <chainId> <fromBlock> [--jobs a,b]',
  needsIndices: true,
  async run(ctx, args) {
    const { chainId, fromBlock, names } = parseBackfillArgs(args);
    const chain = ctx.config.chains.find((c) => c.id === chainId);
    if (!chain)
      throw new UsageError(
        `backfill: chain ${chainId} is not configured (chains: ${ctx.config.chains.map((c) => c.id).join(', ')})`,
      );
    if (fromBlock < chain.startBlock)
      throw new UsageError(`backfill: chain ${chainId} starts at block ${chain.startBlock}`);
    const withCursor = await jobsWithCursor(ctx.deps.pg, chainId);
    const requested = names ?? JOBS.filter((j) => j.name !== 'blocks' && withCursor.has(j.name)).map((j) => j.name);
    const jobs = requested.map((n) => findJob(n) ?? unknownJob(n));
    const missing = jobs.filter((j) => j.name !== 'blocks' && !withCursor.has(j.name));
    if (missing.length)
      throw new UsageError(
        `backfill: ${missing.map((j) => j.name).join(', ')} never indexed chain ${chainId} (no cursor); a first run indexes from the start block`,
      );
    if (!jobs.length) throw new UsageError(`backfill: no job has indexed chain ${chainId} yet`);

    let toRun: Job[];
    if (jobs.some((j) => j.name === 'blocks')) {
      const result = await withTransaction(ctx.deps.pg, async (tx) => {
        await lockChainForWrite(tx, chainId);
        return rollbackChain(tx, chainId, fromBlock - 1);
      });
      ctx.out(`chain ${chainId}: rolled back to block ${fromBlock - 1} (deleted ${JSON.stringify(result.deleted)})`);
      toRun = JOBS.filter((j) => j.name === 'blocks' || withCursor.has(j.name));
    } else {
      for (const job of jobs) await rewindCursor(ctx, job.name, chainId, fromBlock - 1);
      toRun = jobs;
    }
    const target = jobs.some((j) => j.name === 'blocks')
      ? Number(await [...ctx.deps.rpc.values()].find((c) => c.chain.id === chainId)!.client.getBlockNumber()) -
        chain.confirmations
      : ((await canonicalHead(ctx.deps.pg, chainId)) ?? fromBlock - 1);
    await runUntilCaughtUp(ctx, toRun, chainId, fromBlock, target);
    return 0;
  },
};

/** Pure: `<chainId> <fromBlock> [--jobs a,b]` → numbers and job names. */
export function parseBackfillArgs(args: string[]): { chainId: number; fromBlock: number; names: string[] | null } {
  const positional: string[] = [];
  let names: string[] | null = null;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--jobs')
      names = (args[++i] ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    else if (arg.startsWith('--jobs='))
      names = arg
        .slice('--jobs='.length)
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    else positional.push(arg);
  }
  const [chainId, fromBlock] = positional.map(Number);
  if (positional.length !== 2 || !Number.isSafeInteger(chainId) || !Number.isSafeInteger(fromBlock) || fromBlock! < 0) {
    throw new UsageError('backfill: give a chain id and a non-negative block number');
  }
  if (names && !names.length) throw new UsageError('backfill: --jobs needs a comma-separated list of jobs');
  return { chainId: chainId!, fromBlock: fromBlock!, names };
}

async function jobsWithCursor(pg: PgPool, chainId: number): Promise<Set<string>> {
  const { rows } = await pg.query<{ job: string }>('SELECT job FROM cursors WHERE chain_id = $1', [chainId]);
  return new Set(rows.map((r) => r.job));
}

/** Moves one job's cursor back (never forward) under its advisory lock and the chain's write lock. */
async function rewindCursor(ctx: CommandContext, job: string, chainId: number, to: number): Promise<void> {
  await withTransaction(ctx.deps.pg, async (tx) => {
    const free = await tx.query<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock($1, hashtext($2)) AS ok', [
      JOB_LOCK_NAMESPACE,
      job,
    ]);
    if (!free.rows[0]?.ok) {
      ctx.out(`${job}: waiting for its running run to finish…`);
      await tx.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [JOB_LOCK_NAMESPACE, job]);
    }
    await lockChainForWrite(tx, chainId);
    await tx.query(
      'UPDATE cursors SET block_number = $3, updated_at = now() WHERE job = $1 AND chain_id = $2 AND block_number > $3',
      [job, chainId, to],
    );
  });
  ctx.out(`${job}: chain ${chainId} cursor moved back to ${to}`);
}

/** Runs each job (forced, in order) until its cursor on the chain reaches `target`, drawing the bar from the cursors. */
async function runUntilCaughtUp(
  ctx: CommandContext,
  jobs: Job[],
  chainId: number,
  fromBlock: number,
  target: number,
): Promise<void> {
  const span = Math.max(0, target - fromBlock + 1);
  const bar = createProgressBar({
    stream: ctx.err,
    label: `backfill chain ${chainId}`,
    unit: 'blocks',
    total: span * jobs.length,
  });
  const cursorOf = async (job: string) => (await getCursor(ctx.deps.pg, job, chainId)) ?? fromBlock - 1;
  const doneOf = (cursor: number) => Math.min(span, Math.max(0, cursor - fromBlock + 1));
  for (const [index, job] of jobs.entries()) {
    let idle = 0;
    for (let cursor = await cursorOf(job.name); cursor < target; ) {
      if (ctx.deps.signal.aborted) throw new Error('backfill aborted');
      const result = await withPolling(
        () => runJob(job, ctx.deps, { force: true, trigger: 'backfill' }),
        async () => bar.update(index * span + doneOf(await cursorOf(job.name))),
      );
      if (result.status === 'skipped') await sleep(1000); // another process runs it; its cursor still moves
      const next = await cursorOf(job.name);
      idle = next > cursor ? 0 : idle + 1;
      if (idle >= MAX_IDLE_RUNS)
        throw new Error(
          `${job.name} made no progress on chain ${chainId} at block ${next} (target ${target}) in ${MAX_IDLE_RUNS} runs`,
        );
      cursor = next;
      bar.update(index * span + doneOf(cursor));
    }
    bar.update((index + 1) * span);
  }
  bar.finish();
  ctx.out(`backfill chain ${chainId}: ${jobs.map((j) => j.name).join(', ')} caught up to block ${target}`);
}

/** Runs `task`, calling `poll` every POLL_MS until it settles. */
async function withPolling<T>(task: () => Promise<T>, poll: () => Promise<void>): Promise<T> {
  const timer = setInterval(() => void poll().catch(() => {}), POLL_MS);
  try {
    return await task();
  } finally {
    clearInterval(timer);
  }
}
