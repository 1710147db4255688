import { findJob, JOBS } from '../registry.js';
import { runJob } from '../runJob.js';
import { formatRun } from './formatRun.js';
import { UsageError, type Command } from './types.js';

/**
 * `run <job|all> [--force]`: runs one job once now, even when paused (the operator asked for it);
 * `all` runs every job in pipeline order and skips paused ones unless `--force`. Prints each run:
 * status, duration, counts and ranges (a failure is recorded, printed by the CLI and exits 1).
 */
export const runCommand: Command = {
  usage: 'run <job|all> [--force]',
  needsIndices: true,
  async run(ctx, args) {
    const name = args.find((a) => !a.startsWith('--'));
    if (!name) throw new UsageError('run: name a job or "all"');
    const jobs = name === 'all' ? JOBS : [findJob(name) ?? unknownJob(name)];
    const force = name !== 'all' || args.includes('--force');
    for (const job of jobs) {
      const result = await runJob(job, ctx.deps, { force, trigger: 'cli' });
      ctx.out(formatRun(job.name, result));
    }
    return 0;
  },
};

/** Throws the usage error naming the known jobs. */
export function unknownJob(name: string): never {
  throw new UsageError(`unknown job "${name}" (jobs: ${JOBS.map((j) => j.name).join(', ')})`);
}
