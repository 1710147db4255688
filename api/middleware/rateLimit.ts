import type { Context, Next } from 'koa';
import type { Logger } from '../../internal/logger.js';
import { AppError } from '../errors.js';
import { withTransaction as inWriteTransaction, type PgPool } from '../../internal/pg.js';
import type { AuthState } from '../identity/types.js';
import { describeError } from '../../internal/errors.js';
import { claimQuotaIn, QuotaLeases } from './quotaLeases.js';
import { quotaWithFallback } from './quotaWithFallback.js';
import { clientKey as keyOfAddress } from './clientAddress.js';
import { PROBLEMS } from '../problems/registry.js';

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
 * Paths never limited: probes must work under any load; the explorer and operations pages, their
 * hashed assets and the favicon are static files (their API calls are limited like anyone's).
 * /v4/health itself is limited (and cached, api/routes/health/handlers.ts): it is public and costs
 * PostgreSQL, Elasticsearch and RPC calls (M3 of #29). So is /metrics (one body a second, hundreds
 * of KB: unlimited, one client's scrapes slowed the liveness probe from 13 to 499 ms, #43 F7); a
 * scraper asks once every few seconds.
 */
const UNLIMITED = /^\/(v4\/health\/(live|ready)$|ops$|assets\/|favicon\.ico$|$)/;

/** Whether `path` is exempt from every rate limit (probes, scraping, static pages). */
export const isUnlimitedPath = (path: string): boolean => UNLIMITED.test(path);

export type RateLimitParams = {
  pool: PgPool;
  logger: Logger;
  limits?: RateLimits;
  /**
   * Requests per second of one client address across all its API keys (config.clientLimits.requestsPerAddress);
   * default: the highest limit of `limits`, so an address never passes what its best key could alone.
   */
  perAddress?: number | undefined;
  /** The client's address key (clientKeyOf(config.trustedProxies)); default: the socket peer's. */
  clientKey?: (ctx: Context) => string;
};

/** The limit of a caller: its key's tier (the highest known tier for larger tiers), else the anonymous one. */
export function limitFor(limits: RateLimits, tier: number | null): number {
  if (tier === null) return limits.anonymous;
  return limits.tiers[tierOf(limits, tier)] ?? limits.anonymous;
}

/** The tier whose limit a key has (tiers past the last known one count as the last). */
function tierOf(limits: RateLimits, tier: number): number {
  return Math.min(Math.max(tier, 0), limits.tiers.length - 1);
}

/** Seconds until the window starting at `windowStart` ends (at least 1), as RateLimit-Reset and Retry-After say it. */
export function secondsToReset(windowStart: number, nowMs: number): number {
  return Math.max(1, Math.ceil((windowStart * 1000 + 1000 - nowMs) / 1000));
}

/**
 * The 429 of a caller past `limit` in the current window, its headers set on `ctx`; `scope`
 * `address` when the bound met is the client address's across its keys.
 */
export function rateLimited(ctx: Context, limit: number, reset: number, scope?: 'address'): AppError {
  ctx.set({
    'RateLimit-Limit': String(limit),
    'RateLimit-Remaining': '0',
    'RateLimit-Reset': String(reset),
    'Retry-After': String(reset),
  });
  const whose = scope === 'address' ? ' for this client address across its API keys' : '';
  return new AppError(
    PROBLEMS.RATE_LIMITED,
    `Rate limit of ${limit} requests per second${whose} exceeded; retry in ${reset} s`,
    { extensions: { limit, ...(scope ? { scope } : {}) } },
  );
}

/**
 * Fixed one-second windows shared by every API process: each caller's bucket (its API key, else its
 * client address key, behind trusted proxies from X-Forwarded-For) is counted in PostgreSQL, claimed in leases (QuotaLeases: one upsert per request at
 * small limits, one per ⌊limit/20⌋ requests at large ones, never more grants than the limit). A
 * request with a key also counts in its client address's bucket (`perAddress` across all the keys
 * used from it: keys are free to make, an address is not; #43 F5). Over either limit → 429 problem
 * with `Retry-After`; every limited response carries `RateLimit-Limit`,
 * `RateLimit-Remaining` and `RateLimit-Reset` (seconds). Runs after `authenticate` (needs the key).
 * If PostgreSQL fails, the same limits are counted in this process's memory (LocalWindows) for
 * PG_RETRY_MS before PostgreSQL is asked again, and the fallback is logged (quotaWithFallback, L4 of #29).
 * Tables: rate_limit_windows (old windows are swept every minute).
 */
export function rateLimit({
  pool,
  logger,
  limits = DEFAULT_RATE_LIMITS,
  perAddress = Math.max(...limits.tiers),
  clientKey = (ctx) => keyOfAddress(ctx.ip),
}: RateLimitParams) {
  const decide = quotaWithFallback(new QuotaLeases(claimQuotaIn(pool)), logger, 'rate limit');
  let nextSweep = 0;
  return async (ctx: Context, next: Next): Promise<void> => {
    if (isUnlimitedPath(ctx.path)) return next();
    const apiKey = (ctx.state as AuthState).apiKey;
    const address = clientKey(ctx);
    const bucket = apiKey ? `key:${apiKey.id}` : `ip:${address}`;
    const limit = limitFor(limits, apiKey ? apiKey.tier : null);
    const nowMs = Date.now();
    const windowStart = Math.floor(nowMs / 1000);
    // The address's bucket first: a request it refuses costs no key's quota.
    const ofAddress = apiKey
      ? await decide({ bucket: `keys-from:${address}`, windowStart, limit: perAddress, path: ctx.path })
      : null;
    if (ofAddress && !ofAddress.allowed)
      throw rateLimited(ctx, perAddress, secondsToReset(windowStart, nowMs), 'address');
    // Keys of one tier used from one address share that tier's limit: twenty free keys made from one
    // address pass what one does, not twenty times it (keys of several tiers: at most the sum of the tiers').
    const ofTier = apiKey
      ? await decide({
          bucket: `tier${tierOf(limits, apiKey.tier)}-from:${address}`,
          windowStart,
          limit,
          path: ctx.path,
        })
      : null;
    if (ofTier && !ofTier.allowed) throw rateLimited(ctx, limit, secondsToReset(windowStart, nowMs), 'address');
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
      'RateLimit-Remaining': String(
        Math.min(
          decision.remaining,
          ofAddress?.remaining ?? Number.POSITIVE_INFINITY,
          ofTier?.remaining ?? Number.POSITIVE_INFINITY,
        ),
      ),
      'RateLimit-Reset': String(reset),
    };
    try {
      await next();
    } finally {
      ctx.set(headers);
    }
  };
}
