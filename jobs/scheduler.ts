import cron, { type ScheduledTask } from 'node-cron';
import { fileURLToPath } from 'node:url';
import type { Config } from '../internal/config.js';
import type { Logger } from '../internal/logger.js';
import { createJobDeps } from './deps.js';
import { JOBS } from './registry.js';
import { runJob } from './runJob.js';
import type { Job } from './types.js';

export type Scheduler = { stop(): Promise<void> };

/**
 * Schedules every job on its cron expression (JOB_<NAME>_CRON, else the job's default). A tick never overlaps the same
 * job's previous run in this process, and the advisory lock in runJob keeps other processes out.
 * `stop` stops the ticks, aborts running jobs at their next step boundary and waits for them.
 */
export function startScheduler({ config, logger, jobs = JOBS }: { config: Config; logger: Logger; jobs?: readonly Job[] }): Scheduler {
  const controller = new AbortController();
  const deps = createJobDeps(config, logger, controller.signal);
  const running = new Map<string, Promise<unknown>>();
  const tasks: ScheduledTask[] = [];
  for (const job of jobs) {
    const expression = config.schedules[job.name] ?? job.defaultCron;
    if (!cron.validate(expression)) throw new Error(`invalid cron expression for job ${job.name}: ${expression}`);
    tasks.push(
      cron.schedule(expression, () => {
        if (running.has(job.name) || controller.signal.aborted) return;
        const run = runJob(job, deps)
          .catch(() => {}) // already logged and recorded in job_runs by runJob
          .finally(() => running.delete(job.name));
        running.set(job.name, run);
      }, { name: job.name }),
    );
    logger.info({ msg: 'job scheduled', job: job.name, cron: expression });
  }
  return {
    async stop() {
      controller.abort();
      for (const task of tasks) await task.stop();
      await Promise.allSettled(running.values());
      await deps.close();
    },
  };
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
  const scheduler = startScheduler({ config, logger });
  const shutdown = async (signal: string) => {
    logger.info({ msg: 'scheduler stopping', signal });
    await scheduler.stop();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
}
