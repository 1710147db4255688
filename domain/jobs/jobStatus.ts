import type { PgPool } from '../../internal/pg.js';
import { redactStored } from '../../internal/redact.js';
import { loadJobStates } from './jobState.js';

/** Window of the run and error counts. */
export const STATUS_WINDOW_HOURS = 24;

export type JobChainStatus = {
  chainId: number;
  /** Last block processed on the chain; null before the first range (a unit that never completed one). */
  cursor: number | null;
  /** Chain time (unix seconds) of the cursor block, when its header is stored. */
  cursorTimestamp: number | null;
  /** Last block of the canonical header chain (the blocks job's cursor), null before its first run. */
  canonicalHead: number | null;
  /** Chain time (unix seconds) of the canonical head block, when stored. */
  canonicalHeadTimestamp: number | null;
  /** canonicalHead − cursor (never negative); null without canonical head. The blocks job's own lag is measured against the node (see callers). */
  lagBlocks: number | null;
  /** Latest run of this chain's work unit (job_runs.chain_id); null before its first unit run. */
  lastRun: {
    status: string;
    startedAt: Date;
    finishedAt: Date | null;
    error: string | null;
    /** Why a 'skipped' run did nothing (job_runs.skip_reason), else null. */
    skipReason: string | null;
  } | null;
  /** Failed unit runs since its last success: above 0 the scheduler is backing off this chain. */
  consecutiveFailures: number;
};

export type JobStatus = {
  job: string;
  paused: boolean;
  pausedAt: Date | null;
  /** Operator cron override (job_state.cron), if any. */
  cronOverride: string | null;
  lastRun: {
    status: string;
    startedAt: Date;
    finishedAt: Date | null;
    durationMs: number | null;
    error: string | null;
    /** Why a 'skipped' run did nothing (job_runs.skip_reason), else null. */
    skipReason: string | null;
  } | null;
  lastSuccessAt: Date | null;
  runs24h: number;
  errors24h: number;
  chains: JobChainStatus[];
};

type UnitRow = {
  job: string;
  chain_id: number;
  status: string;
  started_at: Date;
  finished_at: Date | null;
  error: string | null;
  skip_reason: string | null;
  failures: number;
};

type RunRow = {
  job: string;
  status: string | null;
  started_at: Date | null;
  finished_at: Date | null;
  error: string | null;
  skip_reason: string | null;
  last_success_at: Date | null;
  runs: string;
  errors: string;
};

/**
 * Operator view of jobs, read from PostgreSQL only (so every process reports the same): job_state,
 * the latest run, the latest success, runs and failures in the last 24 h, and per chain the cursor
 * against the canonical head with its work unit's latest run and failures since its last success.
 * `names` defaults to every job seen in job_runs, cursors or job_state.
 * Tables: job_runs (index job, started_at), job_state, cursors.
 */
export async function loadJobStatuses(pg: PgPool, names?: readonly string[]): Promise<JobStatus[]> {
  const [states, cursors, units] = await Promise.all([
    loadJobStates(pg),
    // Each cursor with its block's chain time (lag in seconds), when the header is stored.
    pg.query<{ job: string; chain_id: number; block_number: string; timestamp: string | null }>(
      `SELECT c.job, c.chain_id, c.block_number, b.timestamp FROM cursors c
       LEFT JOIN blocks b ON b.chain_id = c.chain_id AND b.number = c.block_number ORDER BY c.job, c.chain_id`,
    ),
    // Units seen in job_runs (an index skip-scan over (job, chain_id)), with their latest run and failures since their last success.
    pg.query<UnitRow>(
      `WITH RECURSIVE u(job, chain_id) AS (
         (SELECT job, chain_id FROM job_runs WHERE chain_id IS NOT NULL ORDER BY job, chain_id LIMIT 1)
         UNION ALL
         SELECT n.job, n.chain_id FROM u CROSS JOIN LATERAL (SELECT r.job, r.chain_id FROM job_runs r
           WHERE r.chain_id IS NOT NULL AND (r.job, r.chain_id) > (u.job, u.chain_id) ORDER BY r.job, r.chain_id LIMIT 1) n)
       SELECT u.job, u.chain_id, last.status, last.started_at, last.finished_at, last.error, last.skip_reason,
         (SELECT count(*)::int FROM job_runs f WHERE f.job = u.job AND f.chain_id = u.chain_id AND f.status = 'failed'
            AND f.started_at > COALESCE((SELECT max(started_at) FROM job_runs s WHERE s.job = u.job AND s.chain_id = u.chain_id AND s.status = 'success'), '-infinity')) AS failures
       FROM u JOIN LATERAL (SELECT status, started_at, finished_at, error, skip_reason FROM job_runs r WHERE r.job = u.job AND r.chain_id = u.chain_id
         ORDER BY started_at DESC LIMIT 1) last ON true`,
    ),
  ]);
  const unitRuns = new Map(units.rows.map((u) => [`${u.job}:${u.chain_id}`, u]));
  const jobs = names ?? (await knownJobs(pg));
  const { rows } = await pg.query<RunRow>(
    `SELECT j.job, last.status, last.started_at, last.finished_at, last.error, last.skip_reason, ok.finished_at AS last_success_at, day.runs, day.errors
     FROM unnest($1::text[]) AS j(job)
     LEFT JOIN LATERAL (SELECT status, started_at, finished_at, error, skip_reason FROM job_runs r WHERE r.job = j.job ORDER BY started_at DESC LIMIT 1) last ON true
     LEFT JOIN LATERAL (SELECT finished_at FROM job_runs r WHERE r.job = j.job AND r.status = 'success' ORDER BY started_at DESC LIMIT 1) ok ON true
     LEFT JOIN LATERAL (SELECT count(*) AS runs, count(*) FILTER (WHERE status = 'failed') AS errors
       FROM job_runs r WHERE r.job = j.job AND r.started_at > now() - make_interval(hours => $2)) day ON true`,
    [jobs, STATUS_WINDOW_HOURS],
  );
  const heads = new Map(cursors.rows.filter((c) => c.job === 'blocks').map((c) => [c.chain_id, c]));
  const seconds = (t: string | null | undefined) => (t === null || t === undefined ? null : Number(t));
  return rows.map((r) => {
    const state = states.get(r.job);
    return {
      job: r.job,
      paused: state?.paused ?? false,
      pausedAt: state?.pausedAt ?? null,
      cronOverride: state?.cron ?? null,
      lastRun:
        r.status && r.started_at
          ? {
              status: r.status,
              startedAt: r.started_at,
              finishedAt: r.finished_at,
              durationMs: r.finished_at ? r.finished_at.getTime() - r.started_at.getTime() : null,
              error: redactStored(r.error),
              skipReason: r.skip_reason,
            }
          : null,
      lastSuccessAt: r.last_success_at,
      runs24h: Number(r.runs),
      errors24h: Number(r.errors),
      chains: [
        ...new Set([
          ...cursors.rows.filter((c) => c.job === r.job).map((c) => c.chain_id),
          ...units.rows.filter((u) => u.job === r.job).map((u) => u.chain_id),
        ]),
      ]
        .sort((a, b) => a - b)
        .map((chainId) => {
          const row = cursors.rows.find((c) => c.job === r.job && c.chain_id === chainId);
          const cursor = row ? Number(row.block_number) : null;
          const head = heads.get(chainId);
          const canonicalHead = head ? Number(head.block_number) : null;
          const unit = unitRuns.get(`${r.job}:${chainId}`);
          return {
            chainId,
            cursor,
            cursorTimestamp: seconds(row?.timestamp),
            canonicalHead,
            canonicalHeadTimestamp: seconds(head?.timestamp),
            lagBlocks: canonicalHead === null || cursor === null ? null : Math.max(0, canonicalHead - cursor),
            lastRun: unit
              ? {
                  status: unit.status,
                  startedAt: unit.started_at,
                  finishedAt: unit.finished_at,
                  error: redactStored(unit.error),
                  skipReason: unit.skip_reason,
                }
              : null,
            consecutiveFailures: unit?.failures ?? 0,
          };
        }),
    };
  });
}

/**
 * Names of every job with a run, a cursor or an operator state, sorted. job_runs grows with every
 * tick, so its distinct names are read by skipping through the (job, started_at) index, one probe
 * per job, instead of scanning the table.
 */
async function knownJobs(pg: PgPool): Promise<string[]> {
  const { rows } = await pg.query<{ job: string }>(
    `WITH RECURSIVE runs(job) AS (
       (SELECT job FROM job_runs ORDER BY job LIMIT 1)
       UNION ALL
       SELECT (SELECT r.job FROM job_runs r WHERE r.job > runs.job ORDER BY r.job LIMIT 1) FROM runs WHERE runs.job IS NOT NULL)
     SELECT job FROM runs WHERE job IS NOT NULL UNION SELECT job FROM cursors UNION SELECT job FROM job_state ORDER BY job`,
  );
  return rows.map((r) => r.job);
}

/** A unit's latest run with ISO times. */
export const unitRun = (r: JobChainStatus['lastRun']) =>
  r
    ? {
        status: r.status,
        startedAt: r.startedAt.toISOString(),
        finishedAt: r.finishedAt?.toISOString() ?? null,
        error: r.error,
        skipReason: r.skipReason,
      }
    : null;
