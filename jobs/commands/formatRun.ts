import type { RunJobResult } from '../control/types.js';

/** Pure: milliseconds as "850 ms" or "2.41 s". */
const duration = (ms: number) => (ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(2)} s`);

/**
 * Pure: one finished run as `jobs:run` prints it, e.g.
 * `publish: success in 41 ms (run 12) · counts: published 3, deleted 0 · ranges: 31337 100–164`;
 * a skipped run says why.
 */
export function formatRun(job: string, result: RunJobResult): string {
  if (result.status === 'skipped')
    return `${job}: skipped (${result.reason === 'paused' ? 'paused; --force runs it anyway' : 'another process is running it'})`;
  const counts =
    Object.entries(result.result.counts)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ') || 'none';
  const ranges = result.result.ranges.map((r) => `${r.chainId} ${r.from}–${r.to}`).join(', ') || 'none';
  return `${job}: ${result.status} in ${duration(result.durationMs)} (run ${result.runId}) · counts: ${counts} · ranges: ${ranges}`;
}
