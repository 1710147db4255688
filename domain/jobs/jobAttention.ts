/** A job × chain is lagging once its cursor is this far (chain time) behind the head. */
export const LAG_ATTENTION_SECONDS = 300;
/** A job is overdue once its last success is older than this many of its schedule's intervals (plus a minute). */
export const OVERDUE_INTERVALS = 3;

/** Most urgent first: the operations page sorts jobs in this order. */
export const ATTENTION_ORDER = ['failing', 'lagging', 'paused', 'not-configured', 'never-run', 'ok'] as const;
export type AttentionStatus = (typeof ATTENTION_ORDER)[number];
export type Attention = { status: AttentionStatus; reasons: string[] };

export type JobAttentionParams = {
  paused: boolean;
  lastRun: { status: string; error: string | null; skipReason?: string | null } | null;
  lastSuccessAt: Date | null;
  chains: { chainId: number; lagSeconds: number | null; lagBlocks: number | null; consecutiveFailures: number }[];
  /** Whether lagSeconds of the chains is chain time behind the head (a block cursor) or not. */
  blockCursor: boolean;
  /** Longest gap between the schedule's runs; null when the schedule is unreadable. */
  intervalMs: number | null;
  now: Date;
};

/**
 * Pure: what an operator should know of a job first. Failing: its latest run failed or a chain's
 * unit fails in a row (the scheduler backs that chain off). Lagging: a chain's cursor is more than
 * LAG_ATTENTION_SECONDS behind the head, or no success for OVERDUE_INTERVALS intervals of its
 * schedule (is a scheduler running?). Then paused; not configured (its latest run was skipped: it found nothing
 * configured to do, so it is not 'ok', #44); never run; ok. Every reason is a sentence.
 */
export function jobAttention(p: JobAttentionParams): Attention {
  const failing = [
    ...(p.lastRun?.status === 'failed' ? [`last run failed${p.lastRun.error ? `: ${p.lastRun.error}` : ''}`] : []),
    ...p.chains
      .filter((c) => c.consecutiveFailures > 0)
      .map((c) => `chain ${c.chainId}: ${c.consecutiveFailures} failed runs in a row (backing off)`),
  ];
  if (failing.length) return { status: 'failing', reasons: failing };
  const lagging = p.blockCursor
    ? p.chains
        .filter((c) => c.lagSeconds !== null && c.lagSeconds > LAG_ATTENTION_SECONDS)
        .map((c) => `chain ${c.chainId}: ${c.lagSeconds} s behind the head (${c.lagBlocks ?? '?'} blocks)`)
    : [];
  const sinceSuccessMs = p.lastSuccessAt ? p.now.getTime() - p.lastSuccessAt.getTime() : null;
  if (
    !p.paused &&
    p.lastRun?.status !== 'running' &&
    p.intervalMs !== null &&
    sinceSuccessMs !== null &&
    sinceSuccessMs > OVERDUE_INTERVALS * p.intervalMs + 60_000
  )
    lagging.push(
      `no success for ${Math.round(sinceSuccessMs / 1000)} s while it runs every ${Math.round(p.intervalMs / 1000)} s: is a scheduler running?`,
    );
  if (lagging.length) return { status: 'lagging', reasons: lagging };
  if (p.paused) return { status: 'paused', reasons: ['paused by an operator: scheduled runs are skipped'] };
  if (p.lastRun?.status === 'skipped')
    return {
      status: 'not-configured',
      reasons: [`its runs do nothing: ${p.lastRun.skipReason ?? 'nothing is configured for it'}`],
    };
  if (!p.lastRun) return { status: 'never-run', reasons: ['no run recorded yet'] };
  return { status: 'ok', reasons: [] };
}
