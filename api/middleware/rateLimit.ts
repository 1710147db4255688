import type { Context, Next } from 'koa';
import type { Logger } from '../../internal/logger.js';
import { AppError } from '../errors.js';
import { withTransaction as inWriteTransaction, type PgPool } from '../../internal/pg.js';
import type { AuthState } from '../identity/types.js';
import { describeError } from '../../internal/errors.js';
import { claimQuotaIn, QuotaLeases, type QuotaDecision } from './quotaLeases.js';
import { LocalWindows } from './localWindows.js';

/**
 * Requests per second: without a (valid) key, and per API key tier (0 Basic, 1 Plus, 2 VIP;
 * docs/api-behaviour.md#limits-and-tiers).
 */
export type RateLimits = { anonymous: number; tiers: number[] };

/** Defaults: 10/s without a key (the documented public limit), 50, 200 and 1000/s for tiers 0, 1, 2. */
export const DEFAULT_RATE_LIMITS: RateLimits = Object.freeze({
  anonymous: 10,
  tiers: Object.freeze([50, 200, 1000]) as number[],
});

/**
 * Paths never limited: probes and scraping must work under any load; the explorer and operations
 * pages, their hashed assets and the favicon are static files (their API calls are limited like
 * anyone's). /v4/health itself is limited (and cached, api/routes/health/handlers.ts): it is public
 * and costs PostgreSQL, Elasticsearch and RPC calls (M3 of #29).
 */
const UNLIMITED = /^\/(v4\/health\/(live|ready)$|metrics$|ops$|assets\/|favicon\.ico$|$)/;

/** Whether `path` is exempt from every rate limit (probes, scraping, static pages). */
export const isUnlimitedPath = (path: string): boolean => UNLIMITED.test(path);

/** While PostgreSQL failed a claim less than this long ago, limits are counted in memory without asking it again. */
export const PG_RETRY_MS = 1000;

/** While limits are counted in memory, one log line per this long at most. */
const FALLBACK_LOG_MS = 10_000;

export type RateLimitParams = {
  pool: PgPool;
  logger: Logger;
  limits?: RateLimits;
  /** The client address of a caller without a key (clientAddressOf(config.trustedProxies)); default: the socket peer. */
  clientAddress?: (ctx: Context) => string;
};

/** The limit of a caller: its key's tier (the highest known tier for larger tiers), else the anonymous one. */
export function limitFor(limits: RateLimits, tier: number | null): number {
  if (tier === null) return limits.anonymous;
  return limits.tiers[Math.min(Math.max(tier, 0), limits.tiers.length - 1)] ?? limits.anonymous;
}

/** Seconds until the window starting at `windowStart` ends (at least 1), as RateLimit-Reset and Retry-After say it. */
export function secondsToReset(windowStart: number, nowMs: number): number {
  return Math.max(1, Math.ceil((windowStart * 1000 + 1000 - nowMs) / 1000));
}

/** The 429 of a caller past `limit` in the current window, its headers set on `ctx`. */
export function rateLimited(ctx: Context, limit: number, reset: number): AppError {
  ctx.set({
    'RateLimit-Limit': String(limit),
    'RateLimit-Remaining': '0',
    'RateLimit-Reset': String(reset),
    'Retry-After': String(reset),
  });
  return new AppError(429, 'RATE_LIMITED', `Rate limit of ${limit} requests per second exceeded; retry in ${reset} s`, {
    extensions: { limit },
  });
}

/**
 * Fixed one-second windows shared by every API process: each caller's bucket (its API key, else its
 * client address, behind trusted proxies from X-Forwarded-For) is counted in PostgreSQL, claimed in leases (QuotaLeases: one upsert per request at
 * small limits, one per ⌊limit/20⌋ requests at large ones, never more grants than the limit). Over
 * the limit → 429 problem with `Retry-After`; every limited response carries `RateLimit-Limit`,
 * `RateLimit-Remaining` and `RateLimit-Reset` (seconds). Runs after `authenticate` (needs the key).
 * If PostgreSQL fails, the same limits are counted in this process's memory (LocalWindows) for
 * PG_RETRY_MS before PostgreSQL is asked again, and the fallback is logged (L4 of #29).
 * Tables: rate_limit_windows (old windows are swept every minute).
 */
export function rateLimit({
  pool,
  logger,
  limits = DEFAULT_RATE_LIMITS,
  clientAddress = (ctx) => ctx.ip,
}: RateLimitParams) {
  const decide = quotaWithFallback(new QuotaLeases(claimQuotaIn(pool)), logger);
  let nextSweep = 0;
  return async (ctx: Context, next: Next): Promise<void> => {
    if (isUnlimitedPath(ctx.path)) return next();
    const apiKey = (ctx.state as AuthState).apiKey;
    const bucket = apiKey ? `key:${apiKey.id}` : `ip:${clientAddress(ctx)}`;
    const limit = limitFor(limits, apiKey ? apiKey.tier : null);
    const nowMs = Date.now();
    const windowStart = Math.floor(nowMs / 1000);
    const decision = await decide({ bucket, windowStart, limit, path: ctx.path });
    if (nowMs >= nextSweep) {
      nextSweep = nowMs + 60_000;
      void inWriteTransaction(pool, (client) =>
        client.query("DELETE FROM rate_limit_windows WHERE window_start < now() - interval '1 minute'"),
      ).catch((error) => logger.warn({ msg: 'rate limit sweep failed', err: describeError(error) }));
    }
    const reset = secondsToReset(windowStart, nowMs);
    if (!decision.allowed) throw rateLimited(ctx, limit, reset);
    const headers = {
      'RateLimit-Limit': String(limit),
      'RateLimit-Remaining': String(decision.remaining),
      'RateLimit-Reset': String(reset),
    };
    try {
      await next();
    } finally {
      ctx.set(headers);
    }
  };
}

type QuotaQuestion = { bucket: string; windowStart: number; limit: number; path: string };

/**
 * Decisions from the shared leases, else from this process's memory with the same limits: a
 * PostgreSQL outage must neither stop the API nor lift its limits. After a failure PostgreSQL is
 * left alone for PG_RETRY_MS (a dead server is not asked once per request); the fallback is logged
 * when it starts, every FALLBACK_LOG_MS while it lasts, and when PostgreSQL answers again.
 */
function quotaWithFallback(leases: QuotaLeases, logger: Logger): (q: QuotaQuestion) => Promise<QuotaDecision> {
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
          msg: 'rate limit counted in PostgreSQL again',
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
          msg: 'rate limit check failed; counting in memory (per process)',
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
