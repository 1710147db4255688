/** GET /v4/internal/jobs (api/routes/internal-jobs/serialize.ts). */
export type JobRun = {
  id: number;
  status: string;
  /** The chain the run worked on; null for a run over every chain. */
  chainId: number | null;
  startedAt: string;
  finishedAt: string | null;
  durationMs: number | null;
  ranges: { chainId: number; from: number; to: number }[];
  counts: Record<string, number>;
  error: string | null;
  trigger: string | null;
  /** Why a 'skipped' run did nothing (nothing configured), else null. */
  skipReason: string | null;
};
/** Most urgent first (domain/jobs/jobAttention.ts ATTENTION_ORDER): the page sorts jobs by it. */
export const ATTENTION_ORDER = ['failing', 'lagging', 'paused', 'not-configured', 'never-run', 'ok'] as const;
export type AttentionStatus = (typeof ATTENTION_ORDER)[number];
export type JobChain = {
  chainId: number;
  cursor: number | null;
  head: number | null;
  lagBlocks: number | null;
  /** Chain seconds behind the head (block cursor), or the age of the unit's last success (no block cursor). */
  lagSeconds: number | null;
  /** Why there is no lag in blocks, or why it is unknown. */
  lagNote: string | null;
  /** Latest run of the job on this chain (its work unit). */
  lastRun: {
    status: string;
    startedAt: string;
    finishedAt: string | null;
    error: string | null;
    skipReason: string | null;
  } | null;
  /** Failed runs on this chain since its last success: the scheduler backs this chain off. */
  consecutiveFailures: number;
};
export type Job = {
  name: string;
  description: string;
  schedule: string;
  scheduleSource: string;
  nextRunAt: string | null;
  state: 'active' | 'paused';
  pausedAt: string | null;
  attention: { status: AttentionStatus; reasons: string[] };
  lastRun: {
    status: string;
    startedAt: string;
    durationMs: number | null;
    error: string | null;
    skipReason: string | null;
  } | null;
  lastSuccessAt: string | null;
  sinceLastSuccessSeconds: number | null;
  blockCursor: boolean;
  lagNote: string | null;
  errors24h: number;
  runs24h: number;
  chains: JobChain[];
  recentRuns: JobRun[];
};
/** One thing an operator must look at (api/reads/attention.ts needsAttention), most urgent first. */
export type AttentionItem = {
  kind: 'dependency' | 'degraded' | 'failing' | 'lagging' | 'paused';
  /** `postgres`, `elasticsearch`, `rpc:<chainId>`, `health` or `job:<name>`. */
  subject: string;
  text: string;
};
export type JobsOverview = {
  checkedAt: string;
  attention: AttentionItem[];
  jobs: Job[];
  outbox: { depth: number; oldestAgeSeconds: number | null };
  freshness: {
    windowSeconds: number;
    samples: number;
    p50Seconds: number | null;
    p95Seconds: number | null;
    clockAheadSamples?: number;
  } | null;
};

/** GET /v4/internal/dependencies (api/routes/internal-dependencies/probeDependencies.ts). */
type Probe<T> = { ok: boolean; latencyMs: number; error?: string } & Partial<T>;
export type Dependencies = {
  checkedAt: string;
  attention: { dependency: string; reason: string }[];
  postgres: Probe<object>;
  elasticsearch: Probe<{ clusterStatus: string; nodes: number; unassignedShards: number }>;
  chains: { id: number; name: string; rpc: Probe<{ head: number; headTimestamp: number }> }[];
};

/** An action's outcome, shown beside the buttons of the job it concerns. */
export type ActionResult = { text: string; error: boolean };

/** One dispute of GET /v4/disputes/{chainId} (api/routes/disputes/serialize.ts). */
export type Dispute = {
  chainId: number;
  root: string | null;
  disputer: string | null;
  message: string;
  createdAt: number;
  blockNumber: number;
  txHash: string;
  status: 'open' | 'valid' | 'invalid';
  resolution: { valid: boolean; resolvedAt: number; txHash: string; endOfDisputePeriod: number | null } | null;
  rootRevoked: boolean;
};
/** The page's dispute section: each chain's latest disputes, newest first. */
export type ChainDisputes = { chainId: number; name: string; disputes: Dispute[]; error?: string };
