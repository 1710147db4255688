import { findJob, JOBS } from '../registry.js';
import { runJob } from '../runJob.js';
import { formatRun } from './formatRun.js';
import { UsageError, type Command } from './types.js';

/**
 * `run <job|all> [--force] [--chain <id>]`: runs one job once now, even when paused (the operator
 * asked for it); `all` runs every job in pipeline order and skips paused ones unless `--force`.
 * `--chain` runs only that chain's work unit of the per-chain jobs (the others run as usual).
 * Prints each run: status, duration, counts and ranges (a failure is recorded, printed by the CLI
 * and exits 1).
 */
export const runCommand: Command = {
  usage: 'run <job|all> [--force] [--chain <id>]',
  needsIndices: true,
  async run(ctx, args) {
    const chainAt = args.indexOf('--chain');
    const chainArg = chainAt >= 0 ? args[chainAt + 1] : undefined;
    if (chainAt >= 0 && !/^\d+$/.test(chainArg ?? ''))
      throw new UsageError('run: --chain needs a chain id (e.g. --chain 8453)');
    const chainId = chainArg === undefined ? undefined : Number(chainArg);
    if (chainId !== undefined && !ctx.deps.rpc.has(chainId))
      throw new UsageError(`run: chain ${chainId} is not configured (chains: ${[...ctx.deps.rpc.keys()].join(', ')})`);
    const name = args.find((a, i) => !a.startsWith('--') && !(chainAt >= 0 && i === chainAt + 1));
    if (!name) throw new UsageError('run: name a job or "all"');
    const jobs = name === 'all' ? JOBS : [findJob(name) ?? unknownJob(name)];
    if (chainId !== undefined && !jobs.some((j) => j.perChain))
      throw new UsageError(`run: ${name} is not run per chain (per-chain jobs: ${perChainJobs()})`);
    const force = name !== 'all' || args.includes('--force');
    for (const job of jobs) {
      const unit = job.perChain && chainId !== undefined ? { chainId } : {};
      const result = await runJob(job, ctx.deps, { force, trigger: 'cli', ...unit });
      ctx.out(formatRun(chainId !== undefined && job.perChain ? `${job.name} (chain ${chainId})` : job.name, result));
    }
    return 0;
  },
};

const perChainJobs = () =>
  JOBS.filter((j) => j.perChain)
    .map((j) => j.name)
    .join(', ');

/** Throws the usage error naming the known jobs. */
export function unknownJob(name: string): never {
  throw new UsageError(`unknown job "${name}" (jobs: ${JOBS.map((j) => j.name).join(', ')})`);
}
