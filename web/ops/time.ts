import { formatDurationMs } from '../shared/format.js';

/** ISO time as `2026-11-27 03:12:56Z` (seconds, UTC), or `never`. */
export const time = (iso: string | null) => (iso ? iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z') : 'never');

/** A span of seconds in the largest sensible unit: `42 s`, `3 min 5 s`, `2 h 4 min`, `3 d 2 h`. */
export function span(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ''}`;
  if (s < 86_400)
    return `${Math.floor(s / 3600)} h${Math.floor((s % 3600) / 60) ? ` ${Math.floor((s % 3600) / 60)} min` : ''}`;
  return `${Math.floor(s / 86_400)} d${Math.floor((s % 86_400) / 3600) ? ` ${Math.floor((s % 86_400) / 3600)} h` : ''}`;
}

/** `in 4 s` / `12 s ago` relative to now. */
export function relative(iso: string, now = Date.now()): string {
  const seconds = (Date.parse(iso) - now) / 1000;
  return seconds >= 0 ? `in ${span(seconds)}` : `${span(-seconds)} ago`;
}

/**
 * When a scheduled run comes: `in 4 s`, or `due now` once its time has passed (the listing was read before
 * that tick; a next run is never "ago").
 */
export function upcoming(iso: string, now = Date.now()): string {
  return Date.parse(iso) >= now ? relative(iso, now) : 'due now';
}

/** A duration given in seconds, sub-second ones in ms: `132 ms`, `2.5 s`, `1m15s`, `–` when unknown. */
export const seconds = (s: number | null) => (s === null ? '–' : formatDurationMs(Math.round(s * 1000)));

/**
 * The freshness tile: `p50 / p95 (N samples)`, each figure in ms below a second (never `0s / 0s`); samples whose
 * block time ran ahead of the clock (a devnet) were timed from indexing, and the tile says how many.
 */
export function freshnessText(
  f: { samples: number; p50Seconds: number | null; p95Seconds: number | null; clockAheadSamples?: number } | null,
) {
  if (!f) return '–';
  if (f.samples === 0) return 'no campaign published in the window';
  const ahead = f.clockAheadSamples
    ? `; ${f.clockAheadSamples === f.samples ? 'all' : f.clockAheadSamples} timed from indexing: block time ahead of the clock`
    : '';
  return `${seconds(f.p50Seconds)} / ${seconds(f.p95Seconds)} (${f.samples} sample${f.samples === 1 ? '' : 's'}${ahead})`;
}

/**
 * Pure: where a job's schedule comes from, in words (not the table it is stored in): an operator's
 * override, the job's environment variable (named), or the job's default; an unknown one as it is.
 */
export function scheduleSourceText(source: string, job: string): string {
  if (source === 'job_state') return 'set by an operator';
  if (source === 'env') return `from JOB_${job.toUpperCase().replaceAll('-', '_')}_CRON`;
  if (source === 'default') return "the job's default";
  return source;
}
