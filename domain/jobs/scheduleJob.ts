import cron from 'node-cron';
import type { Config } from '../../internal/config.js';
import type { PgClient, PgPool } from '../../internal/pg.js';
import { effectiveCron, type CronSource } from './effectiveCron.js';
import { setJobCron } from './jobState.js';
import type { JobInfo } from './types.js';
import { BaseError } from '../../internal/errors.js';

/** The expression is not a node-cron expression (with optional seconds). */
export class InvalidCronError extends BaseError {
  override readonly userError = true;
  override name = 'InvalidCronError';
  constructor(readonly expression: string) {
    super(`schedule: "${expression}" is not a valid cron expression`);
  }
}

export type ScheduleJobParams = {
  db: Pick<PgPool | PgClient, 'query'>;
  config: Pick<Config, 'schedules'>;
  job: JobInfo;
  /** A node-cron expression, or null to remove the override (back to JOB_<NAME>_CRON or the default). */
  expression: string | null;
};

/**
 * Validates and persists a job's cron override in job_state; running schedulers pick it up at their
 * next job_state refresh (every 10 s), no restart needed. Shared by the CLI and the back-office API.
 * @returns the schedule the job now runs on and where it comes from.
 * @throws InvalidCronError when `expression` is not valid.
 * Tables: job_state.
 */
export async function scheduleJob({
  db,
  config,
  job,
  expression,
}: ScheduleJobParams): Promise<{ cron: string; source: CronSource }> {
  const override = expression?.trim() || null;
  if (override !== null && !cron.validate(override)) throw new InvalidCronError(override);
  await setJobCron(db, job.name, override);
  return effectiveCron({ stateCron: override, envCron: config.schedules[job.name], defaultCron: job.defaultCron });
}
