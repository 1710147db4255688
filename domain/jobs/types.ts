import type { Config } from '../../internal/config.js';
import type { EsClient } from '../../internal/es.js';
import type { Logger } from '../../internal/logger.js';
import type { PgPool } from '../../internal/pg.js';
import type { ChainClients } from '../../internal/rpc.js';

/** What every job receives (docs/architecture.md#jobs-and-storage); the scheduler only decides when a job runs. */
export type JobDeps = {
  config: Config;
  logger: Logger;
  pg: PgPool;
  es: EsClient;
  rpc: ChainClients;
  signal: AbortSignal;
};

export type JobRange = { chainId: number; from: number; to: number };

/**
 * Recorded in job_runs: the block ranges covered and what was written. `skipped`: the job had
 * nothing configured to do (e.g. no BENCHMARK_RATE_URL), said as a sentence naming what to set; the
 * run is then recorded as 'skipped' with it, never as a success.
 */
export type JobResult = { ranges: JobRange[]; counts: Record<string, number>; skipped?: string };

/** What the catalog says of a job (domain/jobs/catalog.ts). */
export type JobInfo = {
  name: string;
  description: string;
  /** node-cron expression (with seconds) used unless JOB_<NAME>_CRON overrides it. */
  defaultCron: string;
  /**
   * Scheduled per chain: each chain is a work unit (job × chain) with its own lock, run record and
   * backoff (the job reads only the chains of `deps.rpc`, which a unit's run narrows to its chain).
   */
  perChain?: boolean;
  /**
   * Why the job has no lag in blocks (set for every job that advances no block cursor): the
   * operations page and `list` show it instead of a lag, and its lag is the age of its last success.
   */
  noBlockLag?: string;
  /**
   * Several processes may run it at once: it shares its work through row locks of its own
   * (webhook cursors, SKIP LOCKED), so runJob locks it per process, not across them.
   */
  concurrent?: boolean;
};

export type Job = JobInfo & { run(deps: JobDeps): Promise<JobResult> };

/** Every status of a job_runs row (its CHECK constraint): 'skipped' is a run with nothing configured to do. */
export const RUN_STATUSES = ['running', 'success', 'failed', 'skipped'] as const;

export type RunJobResult =
  | { status: 'success'; runId: number; result: JobResult; durationMs: number }
  | { status: 'skipped'; reason: 'locked' | 'paused' }
  /** The job ran and found nothing configured to do: `detail` says what (job_runs.skip_reason). */
  | { status: 'skipped'; reason: 'not-configured'; detail: string; runId: number; durationMs: number };

/** What started a run: the scheduler, an operator through the API (ops page), the command line, a backfill. */
export type RunTrigger = 'schedule' | 'manual' | 'cli' | 'backfill';
