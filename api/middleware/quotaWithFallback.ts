import { describeError } from '../../internal/errors.js';
import type { Logger } from '../../internal/logger.js';
import { LocalWindows } from './localWindows.js';
import type { QuotaDecision, QuotaLeases } from './quotaLeases.js';

/** While PostgreSQL failed a claim less than this long ago, limits are counted in memory without asking it again. */
export const PG_RETRY_MS = 1000;

/** While limits are counted in memory, one log line per this long at most. */
const FALLBACK_LOG_MS = 10_000;

export type QuotaQuestion = { bucket: string; windowStart: number; limit: number; path: string };

/**
 * Decisions from the shared leases, else from this process's memory with the same limits (windows
 * of any length: `windowStart` only moves forward): a PostgreSQL outage must neither stop the API
 * nor lift its limits. Every limit counted in rate_limit_windows goes through it (the general rate
 * limit, POST /v4/config/store's own); `name` says which in the log lines. After a failure PostgreSQL is
 * left alone for PG_RETRY_MS (a dead server is not asked once per request); the fallback is logged
 * when it starts, every FALLBACK_LOG_MS while it lasts, and when PostgreSQL answers again.
 */
export function quotaWithFallback(
  leases: QuotaLeases,
  logger: Logger,
  name: string,
): (q: QuotaQuestion) => Promise<QuotaDecision> {
  const memory = new LocalWindows();
  let retryAt = 0;
  let downSince: number | null = null;
  let loggedAt = 0;
  let decidedInMemory = 0;
  const inMemory = ({ bucket, windowStart, limit }: QuotaQuestion) => {
    decidedInMemory += 1;
    return memory.take(bucket, windowStart, limit);
  };
  return async (q) => {
    if (Date.now() < retryAt) return inMemory(q);
    try {
      const decision = await leases.take(q.bucket, q.windowStart, q.limit);
      if (downSince !== null) {
        logger.warn({
          msg: `${name} counted in PostgreSQL again`,
          down_ms: Date.now() - downSince,
          decided_in_memory: decidedInMemory,
        });
        (downSince = null), (decidedInMemory = 0);
      }
      return decision;
    } catch (error) {
      const now = Date.now();
      retryAt = now + PG_RETRY_MS;
      if (downSince === null || now - loggedAt >= FALLBACK_LOG_MS) {
        logger.error({
          msg: `${name} check failed; counting in memory (per process)`,
          bucket: q.bucket,
          limit: q.limit,
          path: q.path,
          down_ms: downSince === null ? 0 : now - downSince,
          decided_in_memory: decidedInMemory,
          err: describeError(error),
        });
        loggedAt = now;
      }
      downSince ??= now;
      return inMemory(q);
    }
  };
}
