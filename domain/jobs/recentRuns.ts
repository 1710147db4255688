import type { PgPool } from '../../internal/pg.js';
import { redactStored } from '../../internal/redact.js';

export type RecentRun = {
  id: number;
  status: string;
  /** The chain the run worked on (a per-chain job's unit); null for a run over every chain. */
  chainId: number | null;
  startedAt: Date;
  finishedAt: Date | null;
  durationMs: number | null;
  /** Block ranges the run covered, as the job reported them (e.g. `[{ chainId, from, to }]`). */
  ranges: unknown[];
  counts: Record<string, number>;
  /** Redacted (internal/redact.ts), rows written before redaction existed too. */
  error: string | null;
  /** What started it (job_runs.trigger); null for runs recorded before it was. */
  trigger: string | null;
  /** Why a 'skipped' run did nothing (job_runs.skip_reason), else null. */
  skipReason: string | null;
};

/**
 * The latest `limit` runs of each named job, newest first (one index probe per job).
 * Tables: job_runs (index job, started_at).
 */
export async function loadRecentRuns(
  pg: PgPool,
  names: readonly string[],
  limit: number,
): Promise<Map<string, RecentRun[]>> {
  const { rows } = await pg.query<{
    job: string;
    id: string;
    status: string;
    chain_id: number | null;
    started_at: Date;
    finished_at: Date | null;
    ranges: unknown[];
    counts: Record<string, number>;
    error: string | null;
    trigger: string | null;
    skip_reason: string | null;
  }>(
    `SELECT j.job, r.id, r.status, r.chain_id, r.started_at, r.finished_at, r.ranges, r.counts, r.error, r.trigger, r.skip_reason
     FROM unnest($1::text[]) AS j(job)
     CROSS JOIN LATERAL (SELECT * FROM job_runs x WHERE x.job = j.job ORDER BY x.started_at DESC LIMIT $2) r
     ORDER BY j.job, r.started_at DESC`,
    [names, limit],
  );
  const out = new Map<string, RecentRun[]>(names.map((n) => [n, []]));
  for (const r of rows) {
    out.get(r.job)!.push({
      id: Number(r.id),
      status: r.status,
      chainId: r.chain_id,
      startedAt: r.started_at,
      finishedAt: r.finished_at,
      durationMs: r.finished_at ? r.finished_at.getTime() - r.started_at.getTime() : null,
      ranges: r.ranges,
      counts: r.counts,
      error: redactStored(r.error),
      trigger: r.trigger,
      skipReason: r.skip_reason,
    });
  }
  return out;
}
