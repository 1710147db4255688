import { findJob } from '../registry.js';
import { unknownJob } from './run.js';
import { UsageError, type Command } from './types.js';
import { InvalidCronError, scheduleJob } from '../../domain/jobs/scheduleJob.js';

/** `schedule <job> <cron|default>`: persists a cron override in job_state, or removes it with `default`. */
export const scheduleCommand: Command = {
  usage: 'schedule <job> <cron|default>',
  async run(ctx, args) {
    const [name, ...rest] = args;
    const expression = rest.join(' ').trim();
    if (!name || !expression) throw new UsageError('schedule: name a job and a cron expression (quoted) or "default"');
    const job = findJob(name) ?? unknownJob(name);
    const effective = await scheduleJob({
      db: ctx.deps.pg,
      config: ctx.config,
      job,
      expression: expression === 'default' ? null : expression,
    }).catch((error: unknown) => {
      throw error instanceof InvalidCronError ? new UsageError(error.message) : error;
    });
    ctx.out(`${job.name}: schedule ${effective.cron} (${effective.source}); running schedulers apply it within 10 s`);
    return 0;
  },
};
