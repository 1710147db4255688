import type { QuotaDecision } from './quotaLeases.js';

/**
 * Fixed one-second windows counted in this process's memory, per bucket: the rate limit's stand-in
 * while PostgreSQL cannot be reached, and the per-address screen in front of credential lookups
 * (L4 of #29). Only the current window is kept: a new window drops every older count, so memory
 * follows the callers of one second.
 */
export class LocalWindows {
  private counts = new Map<string, number>();
  private window = 0;

  /** Counts one hit of `bucket` in the window starting at `windowStart` (epoch seconds) if it is under `limit`. */
  take(bucket: string, windowStart: number, limit: number): QuotaDecision {
    const used = this.count(bucket, windowStart);
    if (used >= limit) return { allowed: false, remaining: 0 };
    this.counts.set(bucket, used + 1);
    return { allowed: true, remaining: limit - used - 1 };
  }

  /** Hits of `bucket` counted in the window starting at `windowStart` (or a later one already begun). */
  count(bucket: string, windowStart: number): number {
    // Windows only move forward: a request that read the clock before an await counts in the current one.
    if (windowStart > this.window) {
      this.window = windowStart;
      this.counts = new Map();
    }
    return this.counts.get(bucket) ?? 0;
  }

  /** Counts one hit of `bucket` whatever the limit (something to refuse later in the window). */
  add(bucket: string, windowStart: number): void {
    const used = this.count(bucket, windowStart); // first: it may start a new window (a new map)
    this.counts.set(bucket, used + 1);
  }
}
