import type { RunJobResult } from '../../domain/jobs/types.js';

/** Pure: milliseconds as "850 ms" or "2.41 s". */
const duration = (ms: number) => (ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(2)} s`);

/**
 * Pure: one finished run as `jobs:run` prints it, e.g.
 * `publish: success in 41 ms (run 12) · counts: published 3, deleted 0 · ranges: 31337 100–164`;
 * a skipped run says why (paused, locked, or nothing configured: what to set, e.g.
 * `benchmark-rate: skipped in 3 ms (run 9): BENCHMARK_RATE_URL is not set: …`).
 */
export function formatRun(job: string, result: RunJobResult): string {
  if (result.status === 'skipped' && result.reason === 'not-configured')
    return `${job}: skipped in ${duration(result.durationMs)} (run ${result.runId}): ${result.detail}`;
  if (result.status === 'skipped')
    return `${job}: skipped (${result.reason === 'paused' ? 'paused; --force runs it anyway' : 'another process is running it'})`;
  const counts =
    Object.entries(result.result.counts)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ') || 'none';
  const ranges = result.result.ranges.map((r) => `${r.chainId} ${r.from}–${r.to}`).join(', ') || 'none';
  return `${job}: ${result.status} in ${duration(result.durationMs)} (run ${result.runId}) · counts: ${counts} · ranges: ${ranges}`;
}
