import { setJobPaused } from '../../domain/jobs/jobState.js';
import { findJob } from '../registry.js';
import { unknownJob } from './run.js';
import { UsageError, type Command } from './types.js';

function pauseOrResume(paused: boolean): Command {
  return {
    usage: `${paused ? 'pause' : 'resume'} <job>`,
    async run(ctx, args) {
      const [name] = args;
      if (!name) throw new UsageError(`${paused ? 'pause' : 'resume'}: name a job`);
      const job = findJob(name) ?? unknownJob(name);
      const state = await setJobPaused(ctx.deps.pg, job.name, paused);
      ctx.out(
        paused
          ? `${job.name}: paused since ${state.pausedAt?.toISOString()} (scheduled runs are skipped; a run in progress finishes; \`run ${job.name}\` still runs it)`
          : `${job.name}: active (runs on its schedule again)`,
      );
      return 0;
    },
  };
}

/** `pause <job>`: the scheduler's runs of the job are skipped (job_state.paused) until `resume`. */
export const pauseCommand = pauseOrResume(true);

/** `resume <job>`: the job runs on its schedule again. */
export const resumeCommand = pauseOrResume(false);
