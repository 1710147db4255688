import type { JobListing } from '../../../domain/jobs/listJobs.js';
import type { RecentRun } from '../../../domain/jobs/recentRuns.js';

/** Pure: one recent run in its public shape (ISO times, duration in ms). */
export function serializeRun(run: RecentRun) {
  return {
    id: run.id,
    status: run.status,
    chainId: run.chainId,
    startedAt: run.startedAt.toISOString(),
    finishedAt: run.finishedAt?.toISOString() ?? null,
    durationMs: run.durationMs,
    ranges: run.ranges,
    counts: run.counts,
    error: run.error,
    trigger: run.trigger,
    skipReason: run.skipReason,
  };
}

/** Pure: a job listing plus its recent runs, every field named. */
export function serializeJob(listing: JobListing, runs: RecentRun[]) {
  return {
    name: listing.name,
    description: listing.description,
    schedule: listing.schedule,
    scheduleSource: listing.scheduleSource,
    nextRunAt: listing.nextRunAt,
    state: listing.state,
    pausedAt: listing.pausedAt,
    attention: listing.attention,
    lastRun: listing.lastRun,
    lastSuccessAt: listing.lastSuccessAt,
    sinceLastSuccessSeconds: listing.sinceLastSuccessSeconds,
    blockCursor: listing.blockCursor,
    lagNote: listing.lagNote,
    errors24h: listing.errors24h,
    runs24h: listing.runs24h,
    chains: listing.chains.map((c) => ({
      chainId: c.chainId,
      cursor: c.cursor,
      head: c.head,
      lagBlocks: c.lagBlocks,
      lagSeconds: c.lagSeconds,
      lagNote: c.lagNote,
      lastRun: c.lastRun,
      consecutiveFailures: c.consecutiveFailures,
    })),
    recentRuns: runs.map(serializeRun),
  };
}
