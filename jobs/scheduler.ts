import cron, { type ScheduledTask } from 'node-cron';
import { fileURLToPath } from 'node:url';
import type { Config } from '../internal/config.js';
import { backoffDelay } from '../internal/retry.js';
import { describeError } from '../internal/errors.js';
import type { Logger } from '../internal/logger.js';
import { createJobDeps } from './deps.js';
import { effectiveCron } from './control/effectiveCron.js';
import { loadJobStates } from './control/jobState.js';
import { JOBS } from './registry.js';
import { runJob } from './runJob.js';
import type { Job } from './control/types.js';

export type Scheduler = {
  /** Resolves once job_state has been read and every job is scheduled. */
  ready: Promise<void>;
  /** The cron expression each job is scheduled on now. */
  schedules(): Record<string, string>;
  /** Re-reads job_state now (also done every `refreshMs`). */
  refresh(): Promise<void>;
  stop(): Promise<void>;
};

export type StartSchedulerParams = {
  config: Config;
  logger: Logger;
  jobs?: readonly Job[];
  /** How often job_state cron overrides are re-read, so `jobs/cli.ts schedule` applies without a restart. */
  refreshMs?: number;
  /** After consecutive failed runs a job skips its ticks for base·2^(failures−1) ms, at most max (an RPC node or a database that is down is not hammered). */
  failureBackoff?: { baseDelayMs: number; maxDelayMs: number };
};

/**
 * Schedules every job on its effective cron expression: job_state.cron (set by `jobs/cli.ts
 * schedule`) > JOB_<NAME>_CRON > the job's default. job_state is read before the first tick and
 * every `refreshMs`; a changed expression replaces the job's task. An invalid override is logged
 * and ignored. Paused jobs keep their ticks and runJob skips them. After a failed run a job backs off
 * (failureBackoff: its ticks are skipped for an exponentially growing delay, reset by a success). A tick never overlaps the same
 * job's previous run in this process, and the advisory lock in runJob keeps other processes out.
 * `stop` stops the ticks, aborts running jobs at their next step boundary and waits for them.
 * Tables read: job_state.
 */
export function startScheduler({
  config,
  logger,
  jobs = JOBS,
  refreshMs = 10_000,
  failureBackoff = { baseDelayMs: 5_000, maxDelayMs: 300_000 },
}: StartSchedulerParams): Scheduler {
  // Environment and defaults are checked up front (a bad JOB_<NAME>_CRON stops startup by name).
  for (const job of jobs) {
    const { cron: expression } = effectiveCron({ envCron: config.schedules[job.name], defaultCron: job.defaultCron });
    if (!cron.validate(expression)) throw new Error(`invalid cron expression for job ${job.name}: ${expression}`);
  }

  const controller = new AbortController();
  const deps = createJobDeps(config, logger, controller.signal);
  const running = new Map<string, Promise<unknown>>();
  const tasks = new Map<string, { cron: string; task: ScheduledTask }>();

  const failures = new Map<string, { count: number; retryAt: number }>();

  const tick = (job: Job) => {
    if (running.has(job.name) || controller.signal.aborted) return;
    const failed = failures.get(job.name);
    if (failed && Date.now() < failed.retryAt) return;
    const run = runJob(job, deps)
      .then(() => {
        if (failed) logger.info({ msg: 'job recovered', job: job.name, failed_runs: failed.count });
        failures.delete(job.name);
      })
      .catch(() => {
        // The failure itself is already logged and recorded in job_runs by runJob.
        const count = (failures.get(job.name)?.count ?? 0) + 1;
        const delayMs = backoffDelay({ attempt: count, ...failureBackoff });
        failures.set(job.name, { count, retryAt: Date.now() + delayMs });
        logger.warn({ msg: 'job backing off', job: job.name, failed_runs: count, retry_in_ms: delayMs });
      })
      .finally(() => running.delete(job.name));
    running.set(job.name, run);
  };

  /** Reads job_state and (re)schedules every job whose effective expression changed. */
  const apply = async () => {
    const states = await loadJobStates(deps.pg);
    for (const job of jobs) {
      if (controller.signal.aborted) return;
      let { cron: expression, source } = effectiveCron({
        stateCron: states.get(job.name)?.cron,
        envCron: config.schedules[job.name],
        defaultCron: job.defaultCron,
      });
      if (source === 'job_state' && !cron.validate(expression)) {
        logger.error({ msg: 'invalid cron override in job_state ignored', job: job.name, cron: expression });
        ({ cron: expression, source } = effectiveCron({
          envCron: config.schedules[job.name],
          defaultCron: job.defaultCron,
        }));
      }
      const current = tasks.get(job.name);
      if (current?.cron === expression) continue;
      if (current) await current.task.destroy();
      tasks.set(job.name, { cron: expression, task: cron.schedule(expression, () => tick(job), { name: job.name }) });
      logger.info({ msg: current ? 'job rescheduled' : 'job scheduled', job: job.name, cron: expression, source });
    }
  };
  // One refresh at a time, so two never replace the same task concurrently.
  let queue: Promise<void> = Promise.resolve();
  const refresh = () => (queue = queue.catch(() => {}).then(apply));
  const logFailure = (error: unknown) =>
    logger.error({
      msg: 'reading job_state failed; schedules unchanged until the next refresh',
      err: describeError(error),
    });

  const ready = refresh();
  ready.catch(logFailure);
  const timer = setInterval(() => void refresh().catch(logFailure), refreshMs);
  timer.unref();
  return {
    ready,
    schedules: () => Object.fromEntries([...tasks].map(([name, t]) => [name, t.cron])),
    refresh,
    async stop() {
      controller.abort();
      clearInterval(timer);
      await queue.catch(() => {});
      for (const { task } of tasks.values()) await task.destroy();
      await Promise.allSettled(running.values());
      await deps.close();
    },
  };
}

/** The jobs named in SCHEDULER_JOBS (every job when unset), in pipeline order; an unknown name stops startup naming it. */
export function jobSet(names: readonly string[] | undefined): readonly Job[] {
  if (!names) return JOBS;
  const unknown = names.filter((n) => !JOBS.some((j) => j.name === n));
  if (unknown.length)
    throw new Error(
      `SCHEDULER_JOBS names unknown jobs: ${unknown.join(', ')} (jobs: ${JOBS.map((j) => j.name).join(', ')})`,
    );
  return JOBS.filter((j) => names.includes(j.name));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { loadConfig } = await import('../internal/config.js');
  const { createLogger } = await import('../internal/logger.js');
  const { ensureDatabase, migrate } = await import('../sql/migrate.js');
  const { createEsClient } = await import('../internal/es.js');
  const { ensureIndices } = await import('../search-mappings/aliases.js');
  const config = loadConfig();
  const logger = createLogger({ level: config.logLevel, name: 'scheduler' });
  process.on('unhandledRejection', (reason) => logger.error({ msg: 'unhandled rejection', err: String(reason) }));
  await ensureDatabase(config.databaseUrl);
  await migrate({ databaseUrl: config.databaseUrl, logger });
  const es = createEsClient({ node: config.esUrl, requestTimeoutMs: config.esRequestTimeoutMs });
  await ensureIndices({ es, prefix: config.esIndexPrefix, logger });
  await es.close();
  const scheduler = startScheduler({ config, logger, jobs: jobSet(config.schedulerJobs) });
  await scheduler.ready;
  const shutdown = async (signal: string) => {
    logger.info({ msg: 'scheduler stopping', signal });
    await scheduler.stop();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
}
