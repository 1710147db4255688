/** GET /v4/internal/jobs (api/routes/internal-jobs/serialize.ts). */
export type JobRun = {
  id: number;
  status: string;
  startedAt: string;
  finishedAt: string | null;
  durationMs: number | null;
  ranges: { chainId: number; from: number; to: number }[];
  counts: Record<string, number>;
  error: string | null;
  trigger: string | null;
};
export type Job = {
  name: string;
  description: string;
  schedule: string;
  scheduleSource: string;
  state: 'active' | 'paused';
  pausedAt: string | null;
  lastSuccessAt: string | null;
  errors24h: number;
  runs24h: number;
  chains: {
    chainId: number;
    cursor: number | null;
    head: number | null;
    lagBlocks: number | null;
    /** Latest run of the job on this chain (its work unit). */
    lastRun: { status: string; startedAt: string; finishedAt: string | null; error: string | null } | null;
    /** Failed runs on this chain since its last success: the scheduler backs this chain off. */
    consecutiveFailures: number;
  }[];
  recentRuns: JobRun[];
};
export type JobsOverview = {
  checkedAt: string;
  jobs: Job[];
  outbox: { depth: number; oldestAgeSeconds: number | null };
  freshness: { windowSeconds: number; samples: number; p50Seconds: number | null; p95Seconds: number | null } | null;
};
