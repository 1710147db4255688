import type { Context, Next } from 'koa';
import type { Logger } from '../../../internal/logger.js';
import type { PgPool } from '../../../internal/pg.js';
import { AppError } from '../../errors.js';
import type { AuthState } from '../../identity/types.js';
import { claimQuotaIn, QuotaLeases } from '../../middleware/quotaLeases.js';
import { configStoreCallerOf } from './storeCaller.js';

export type ConfigStoreRateLimitParams = {
  pool: PgPool;
  logger: Logger;
  /** Stores per caller per minute (CONFIG_STORE_RATE_LIMIT). */
  perMinute: number;
  /** The client address as the general rate limit reads it (clientAddressOf(config.trustedProxies)). */
  clientAddress: (ctx: Context) => string;
};

const WINDOW_SECONDS = 60;

/**
 * POST /v4/config/store's own limit, on top of the general one (issue #29 L2: every new body is a
 * row anyone can add): `perMinute` stores per caller (configStoreCallerOf) in fixed one-minute
 * windows shared by every API process through rate_limit_windows (QuotaLeases, as the general
 * limit). Past it: a 429 problem with `Retry-After` (seconds to the next window). Like the general
 * limit it lets the request through when PostgreSQL cannot count it (the store then fails on its own).
 * Tables: rate_limit_windows (buckets `config-store:<caller>`).
 */
export function configStoreRateLimit({ pool, logger, perMinute, clientAddress }: ConfigStoreRateLimitParams) {
  const leases = new QuotaLeases(claimQuotaIn(pool));
  return async (ctx: Context, next: Next): Promise<void> => {
    const caller = configStoreCallerOf(ctx.state as AuthState, clientAddress(ctx));
    if (!caller) return next();
    const nowMs = Date.now();
    const windowStart = Math.floor(nowMs / 1000 / WINDOW_SECONDS) * WINDOW_SECONDS;
    let allowed: boolean;
    try {
      allowed = (await leases.take(`config-store:${caller}`, windowStart, perMinute)).allowed;
    } catch (error) {
      logger.error({ msg: 'config store rate limit check failed', caller, err: (error as Error).message });
      return next();
    }
    if (!allowed) {
      const retryAfter = Math.max(1, Math.ceil(((windowStart + WINDOW_SECONDS) * 1000 - nowMs) / 1000));
      ctx.set('Retry-After', String(retryAfter));
      throw new AppError(
        429,
        'RATE_LIMITED',
        `At most ${perMinute} configurations are stored per minute for one caller (API key, account or client address); retry in ${retryAfter} s`,
        { extensions: { limit: perMinute, windowSeconds: WINDOW_SECONDS } },
      );
    }
    return next();
  };
}
