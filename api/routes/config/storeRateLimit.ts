import type { Context, Next } from 'koa';
import type { Logger } from '../../../internal/logger.js';
import type { PgPool } from '../../../internal/pg.js';
import { AppError } from '../../errors.js';
import type { AuthState } from '../../identity/types.js';
import { claimQuotaIn, QuotaLeases } from '../../middleware/quotaLeases.js';
import { quotaWithFallback } from '../../middleware/quotaWithFallback.js';
import { configStoreCallerOf } from './storeCaller.js';
import { PROBLEMS } from '../../problems/registry.js';

export type ConfigStoreRateLimitParams = {
  pool: PgPool;
  logger: Logger;
  /** Stores per caller per minute (CONFIG_STORE_RATE_LIMIT). */
  perMinute: number;
  /** The client's address key as every per-address limit reads it (clientKeyOf(config.trustedProxies)). */
  clientKey: (ctx: Context) => string;
};

const WINDOW_SECONDS = 60;

/**
 * POST /v4/config/store's own limit, on top of the general one (issue #29 L2: every new body is a
 * row anyone can add): `perMinute` stores per caller (configStoreCallerOf) in fixed one-minute
 * windows shared by every API process through rate_limit_windows (QuotaLeases, as the general
 * limit). Past it: a 429 problem with `Retry-After` (seconds to the next window). Like the general
 * limit it counts in this process's memory while PostgreSQL cannot (quotaWithFallback).
 * Tables: rate_limit_windows (buckets `config-store:<caller>`).
 */
export function configStoreRateLimit({ pool, logger, perMinute, clientKey }: ConfigStoreRateLimitParams) {
  const decide = quotaWithFallback(new QuotaLeases(claimQuotaIn(pool)), logger, 'config store rate limit');
  return async (ctx: Context, next: Next): Promise<void> => {
    const caller = configStoreCallerOf(ctx.state as AuthState, clientKey(ctx));
    if (!caller) return next();
    const nowMs = Date.now();
    const windowStart = Math.floor(nowMs / 1000 / WINDOW_SECONDS) * WINDOW_SECONDS;
    const { allowed } = await decide({
      bucket: `config-store:${caller}`,
      windowStart,
      limit: perMinute,
      path: ctx.path,
    });
    if (!allowed) {
      const retryAfter = Math.max(1, Math.ceil(((windowStart + WINDOW_SECONDS) * 1000 - nowMs) / 1000));
      ctx.set('Retry-After', String(retryAfter));
      throw new AppError(
        PROBLEMS.RATE_LIMITED,
        `At most ${perMinute} configurations are stored per minute for one caller (API key, account or client address); retry in ${retryAfter} s`,
        { extensions: { limit: perMinute, windowSeconds: WINDOW_SECONDS } },
      );
    }
    return next();
  };
}
