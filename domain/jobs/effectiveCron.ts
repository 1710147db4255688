export type CronSource = 'job_state' | 'env' | 'default';

/**
 * Pure: the schedule a job runs on and where it comes from. Precedence: the operator's override in
 * job_state (`jobs/cli.ts schedule`) > JOB_<NAME>_CRON > the job's default. An empty override
 * counts as none.
 */
export function effectiveCron({
  stateCron,
  envCron,
  defaultCron,
}: {
  stateCron?: string | null;
  envCron?: string | null;
  defaultCron: string;
}): { cron: string; source: CronSource } {
  if (stateCron?.trim()) return { cron: stateCron.trim(), source: 'job_state' };
  if (envCron?.trim()) return { cron: envCron.trim(), source: 'env' };
  return { cron: defaultCron, source: 'default' };
}
