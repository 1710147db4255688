import cron from 'node-cron';
import { effectiveCron } from '../effectiveCron.js';
import { setJobCron } from '../jobState.js';
import { findJob } from '../registry.js';
import { unknownJob } from './run.js';
import { UsageError, type Command } from './types.js';

/**
 * `schedule <job> <cron|default>`: persists a cron override in job_state (node-cron syntax, with
 * optional seconds), or removes it with `default`. Running schedulers pick it up at their next
 * job_state refresh (every 10 s), no restart needed.
 */
export const scheduleCommand: Command = {
  usage: 'schedule <job> <cron|default>',
  async run(ctx, args) {
    const [name, ...rest] = args;
    const expression = rest.join(' ').trim();
    if (!name || !expression) throw new UsageError('schedule: name a job and a cron expression (quoted) or "default"');
    const job = findJob(name) ?? unknownJob(name);
    if (expression !== 'default' && !cron.validate(expression)) throw new UsageError(`schedule: "${expression}" is not a valid cron expression`);
    const override = expression === 'default' ? null : expression;
    await setJobCron(ctx.deps.pg, job.name, override);
    const effective = effectiveCron({ stateCron: override, envCron: ctx.config.schedules[job.name], defaultCron: job.defaultCron });
    ctx.out(`${job.name}: schedule ${effective.cron} (${effective.source}); running schedulers apply it within 10 s`);
    return 0;
  },
};
