import { runMetrics } from '../jobs/computeMetrics.js';
import type { JobDeps } from '../domain/jobs/types.js';

const HOUR_MS = 3_600_000;
/** A bound on the backfill (the demo's oldest campaign starts 20 days back, scripts/seedDemo.ts). */
const MAX_DAYS = 30;

export type WriteDemoHistoryParams = {
  /** First snapshot time (ms); default: the earliest campaign start, at most MAX_DAYS back. */
  fromMs?: number;
  stepMs?: number;
};

/**
 * History snapshots for the demo, as the metrics job would have written them had it run every
 * `stepMs` (6 h) from the earliest campaign start until an hour ago: campaigns that are past now keep
 * the history of their live window (a shorter backfill left them with none: "No history yet").
 * @returns the number of snapshot times written.
 */
export async function writeDemoHistory(deps: JobDeps, { fromMs, stepMs = 6 * HOUR_MS }: WriteDemoHistoryParams = {}) {
  const now = Date.now();
  const earliest = await deps.pg.query<{ start: string | null }>(
    'SELECT min(start_timestamp)::text AS start FROM campaigns_current',
  );
  const earliestMs = earliest.rows[0]?.start ? Number(earliest.rows[0].start) * 1000 : now;
  const start = fromMs ?? Math.max(now - MAX_DAYS * 24 * HOUR_MS, earliestMs);
  let written = 0;
  for (let t = start; t < now - HOUR_MS; t += stepMs, written++)
    await runMetrics(deps, { at: new Date(t), snapshotOnly: true });
  return written;
}
