import cron, { type ScheduledTask } from 'node-cron';
import { fileURLToPath } from 'node:url';
import type { Config } from '../internal/config.js';
import { backoffDelay } from '../internal/retry.js';
import { describeError } from '../internal/errors.js';
import type { Logger } from '../internal/logger.js';
import { createJobDeps } from './deps.js';
import { effectiveCron } from '../domain/jobs/effectiveCron.js';
import { loadJobStates } from '../domain/jobs/jobState.js';
import { JOBS } from './registry.js';
import { runJob, unitLockKey } from './runJob.js';
import { startHeadFollower } from './headFollower.js';
import { startOutboxListener } from './outboxListener.js';
import { startRunRequestWorker } from './runRequestWorker.js';
import type { Job } from '../domain/jobs/types.js';
import { createSlowChainGuard } from './slowChainGuard.js';

export type Scheduler = {
  /** Resolves once job_state has been read and every job is scheduled. */
  ready: Promise<void>;
  /**
   * Resolves once its wake-ups (follow mode: LISTEN search_outbox and events) and its run-request worker
   * listen, so a write committed after it wakes this scheduler; separate from `ready`, which a down
   * database rejects rather than holds.
   */
  listening: Promise<void>;
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
 * Schedules every job on its effective cron expression; a tick of a per-chain job starts one run
 * per chain of this process (SCHEDULER_CHAINS, else all), each a work unit with its own lock,
 * backoff and job_runs row, so a slow or dead chain never holds back the others. At most
 * SCHEDULER_CONCURRENCY units run at once in a process; several processes share the units through
 * runJob's advisory locks (a unit held elsewhere is skipped, and a killed process's locks are free
 * at once, so its units run at the survivors' next tick). A chain whose last unit run was slow or
 * failed (a node that answers slowly or not at all) runs at most its share of the slots, so its waits
 * on the node never hold the slots the other chains need (slowChainGuard). Follow mode (FOLLOW_POLL_MS > 0): each
 * chain's head is polled and a new block runs that chain's units at once (blocks, then campaigns,
 * claims, roots), a committed outbox write wakes the publish job (LISTEN search_outbox) and a committed
 * event append the webhooks job (LISTEN events); the
 * crons stay the safety net. The back office's "run now" requests (POST /v4/internal/jobs/{name}/run)
 * are run here too, whatever the mode (jobs/runRequestWorker.ts: LISTEN job_run_requests). Expressions: job_state.cron (set by
 * `jobs/cli.ts schedule`) > JOB_<NAME>_CRON > the job's default. job_state is read before the first
 * tick and every `refreshMs`; a changed expression replaces the job's task. An invalid override is
 * logged and ignored. Paused jobs keep their ticks and runJob skips them. After a failed run a unit
 * backs off (failureBackoff: its ticks are skipped for an exponentially growing delay, reset by a
 * success). A tick never overlaps the same unit's previous run in this process.
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

  const chainIds = schedulerChainIds(config);
  const controller = new AbortController();
  const deps = createJobDeps(config, logger, controller.signal);
  /** Runs in progress, by work unit (unitLockKey), with the unit's chain. */
  const running = new Map<string, { chainId: number | undefined; run: Promise<unknown> }>();
  /** Units of `chainId` running now. */
  const runningOn = (chainId: number) => [...running.values()].filter((r) => r.chainId === chainId).length;
  const tasks = new Map<string, { cron: string; task: ScheduledTask }>();

  const failures = new Map<string, { count: number; retryAt: number }>();
  const slowChains = createSlowChainGuard({ slots: config.schedulerConcurrency, chains: chainIds.length });
  /** The work units of a job: one per chain of this process for a per-chain job, else the job itself. */
  const unitsOf = (job: Job) =>
    job.perChain
      ? chainIds.map((chainId) => ({ key: unitLockKey(job.name, chainId), chainId }))
      : [{ key: unitLockKey(job.name), chainId: undefined }];
  /** Starts one unit's run (a free slot, not running, not backing off); resolves when it ended. */
  const startUnit = (job: Job, key: string, chainId: number | undefined): Promise<void> => {
    const failed = failures.get(key);
    const chain = chainId === undefined ? {} : { chain_id: chainId };
    const startedAt = Date.now();
    const run = runJob(job, deps, chainId === undefined ? {} : { chainId })
      .then(() => {
        slowChains.ended(chainId, Date.now() - startedAt, true);
        if (failed) logger.info({ msg: 'job recovered', job: job.name, ...chain, failed_runs: failed.count });
        failures.delete(key);
      })
      .catch(() => {
        slowChains.ended(chainId, Date.now() - startedAt, false);
        // The failure itself is already logged and recorded in job_runs by runJob.
        const count = (failures.get(key)?.count ?? 0) + 1;
        const delayMs = backoffDelay({ attempt: count, ...failureBackoff });
        failures.set(key, { count, retryAt: Date.now() + delayMs });
        logger.warn({ msg: 'job backing off', job: job.name, ...chain, failed_runs: count, retry_in_ms: delayMs });
      })
      .finally(() => running.delete(key));
    running.set(key, { chainId, run });
    return run;
  };
  const backingOff = (key: string) => {
    const failed = failures.get(key);
    return failed !== undefined && Date.now() < failed.retryAt;
  };

  /**
   * Units waiting for a slot, first come first served (ticks and follow mode alike, so neither
   * starves the other and every chain gets its turn); a unit is queued at most once.
   */
  type Queued = { job: Job; key: string; chainId: number | undefined; done: () => void; ended: Promise<void> };
  const waiting: Queued[] = [];
  const queued = new Map<string, Queued>();
  const dispatch = () => {
    while (!controller.signal.aborted && running.size < config.schedulerConcurrency) {
      const at = waiting.findIndex(
        (q) =>
          !running.has(q.key) && (q.chainId === undefined || !slowChains.mayNotStart(q.chainId, runningOn(q.chainId))),
      );
      if (at < 0) return;
      const [next] = waiting.splice(at, 1);
      queued.delete(next!.key);
      if (backingOff(next!.key)) {
        next!.done();
        continue;
      }
      void startUnit(next!.job, next!.key, next!.chainId).finally(() => {
        next!.done();
        dispatch();
      });
    }
  };
  /** Queues a unit (once) and resolves when that run ended (or was dropped: backing off, stopping). */
  const enqueue = (job: Job, key: string, chainId: number | undefined): Promise<void> => {
    const already = queued.get(key);
    if (already) return already.ended;
    let done!: () => void;
    const ended = new Promise<void>((resolve) => (done = resolve));
    const entry = { job, key, chainId, done, ended };
    waiting.push(entry);
    queued.set(key, entry);
    dispatch();
    return ended;
  };

  const tick = (job: Job) => {
    for (const { key, chainId } of unitsOf(job)) {
      if (controller.signal.aborted) return;
      if (running.has(key) || queued.has(key) || backingOff(key)) continue;
      void enqueue(job, key, chainId);
    }
  };

  /**
   * Follow mode: a new head runs the chain's units at once (through the same queue), blocks first,
   * then the log jobs together. A unit already running may have started before this head: it is
   * awaited, then run again. At most SCHEDULER_CONCURRENCY chains follow at once (a chain over the
   * bound waits for its next head or its cron tick).
   */
  const stages = FOLLOW_STAGES.map((names) => jobs.filter((j) => j.perChain && names.includes(j.name))).filter(
    (stage) => stage.length,
  );
  let following = 0;
  /** Runs a unit after any run of it in progress (which may predate what woke us). */
  const runUnitAgain = async (job: Job, key: string, chainId: number | undefined) => {
    const pending = running.get(key)?.run;
    if (pending) await pending;
    if (controller.signal.aborted || backingOff(key)) return;
    await enqueue(job, key, chainId);
  };
  const runUnitNow = (job: Job, chainId: number) => runUnitAgain(job, unitLockKey(job.name, chainId), chainId);
  const followHead = async (chainId: number) => {
    if (following >= config.schedulerConcurrency) return;
    following += 1;
    try {
      for (const stage of stages) await Promise.all(stage.map((job) => runUnitNow(job, chainId)));
    } finally {
      following -= 1;
    }
  };
  const follower =
    config.followPollMs > 0 && stages.length
      ? startHeadFollower({
          rpc: deps.rpc,
          chainIds,
          pollMs: config.followPollMs,
          logger,
          signal: controller.signal,
          onHead: followHead,
        })
      : null;
  /** Follow mode: a committed write on `channel` runs the job's unit at once (never twice at once); its cron stays the safety net. */
  const wakeOn = (channel: string, jobName: string, name: string) => {
    const job = jobs.find((j) => j.name === jobName);
    return config.followPollMs > 0 && job
      ? startOutboxListener({
          pg: deps.pg,
          logger,
          channel,
          name,
          onWrite: () => runUnitAgain(job, unitLockKey(job.name), undefined),
        })
      : null;
  };
  // An outbox write wakes the projector; an event append the webhook deliveries (chain event → delivered, #32).
  const listeners = [
    wakeOn('search_outbox', 'publish', 'outbox listener'),
    wakeOn('events', 'webhooks', 'webhook wakeups'),
  ];
  const runRequests = startRunRequestWorker({ deps, jobs });

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
  const listening = Promise.all([...listeners.map((l) => l?.ready), runRequests.ready]).then(() => undefined);
  return {
    ready,
    listening,
    schedules: () => Object.fromEntries([...tasks].map(([name, t]) => [name, t.cron])),
    refresh,
    async stop() {
      controller.abort();
      for (const q of waiting.splice(0)) q.done();
      queued.clear();
      follower?.stop();
      for (const listener of listeners) await listener?.stop();
      await runRequests.stop();
      clearInterval(timer);
      await queue.catch(() => {});
      for (const { task } of tasks.values()) await task.destroy();
      await Promise.allSettled([...running.values()].map((r) => r.run));
      await deps.close();
    },
  };
}

/** Follow mode's order on a new head: the headers first (reorgs are found there), then the log jobs together. */
const FOLLOW_STAGES: readonly (readonly string[])[] = [['blocks'], ['campaigns', 'claims', 'roots']];

/** The chains this process runs work units for: SCHEDULER_CHAINS, else every configured chain; an unknown id stops startup naming it. */
export function schedulerChainIds(config: Pick<Config, 'chains' | 'schedulerChains'>): number[] {
  const configured = config.chains.map((c) => c.id);
  if (!config.schedulerChains) return configured;
  const unknown = config.schedulerChains.filter((id) => !configured.includes(id));
  if (unknown.length)
    throw new Error(
      `SCHEDULER_CHAINS names chains that are not configured: ${unknown.join(', ')} (chains: ${configured.join(', ')})`,
    );
  return configured.filter((id) => config.schedulerChains!.includes(id));
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
  const es = createEsClient({
    node: config.esUrl,
    requestTimeoutMs: config.esRequestTimeoutMs,
    sniffIntervalMs: config.esSniffIntervalMs,
  });
  const current = await ensureIndices({ es, prefix: config.esIndexPrefix, logger, shape: config.esIndexShape });
  // A release with a newer mapping rebuilds the search indices from PostgreSQL before publishing.
  const { reindexOutdated } = await import('../indexer/project/reindexOutdated.js');
  const { createPgPool } = await import('../internal/pg.js');
  const pg = createPgPool({ connectionString: config.databaseUrl, applicationName: 'scheduler-upgrade' });
  await reindexOutdated({ config, pg, es, logger, current }).finally(() => pg.end());
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
