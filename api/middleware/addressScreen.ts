import type { Context, Next } from 'koa';
import type { AuthState } from '../identity/types.js';
import { LocalWindows } from './localWindows.js';
import { isUnlimitedPath, rateLimited, secondsToReset, type RateLimits } from './rateLimit.js';

export type AddressScreenParams = {
  limits: RateLimits;
  /** The caller's address, as the rate limit reads it (clientAddressOf(config.trustedProxies)). */
  clientAddress: (ctx: Context) => string;
};

/**
 * A per-address limit counted in this process's memory, in front of `authenticate` (L4 of #29):
 * credential lookups query PostgreSQL, and random well-formed API keys used to cost a query each
 * even on a 429. Per client address and one-second window:
 * - every request counts against the highest limit of RATE_LIMITS (no caller may pass more, so a
 *   legitimate one is never refused here before its own limit);
 * - once `limits.anonymous` API keys sent from the address turned out unknown, further requests
 *   carrying a key are refused without a lookup for the rest of the window (an unknown key is an
 *   anonymous caller, and that is the anonymous budget). A valid key sent from the same address is
 *   refused too until the window ends.
 * Refusals are the rate limit's 429 (RateLimit-*, Retry-After); no PostgreSQL is touched.
 */
export function addressScreen({ limits, clientAddress }: AddressScreenParams) {
  const requests = new LocalWindows();
  const unknownKeys = new LocalWindows();
  const ceiling = Math.max(limits.anonymous, ...limits.tiers);
  return async (ctx: Context, next: Next): Promise<void> => {
    if (isUnlimitedPath(ctx.path)) return next();
    const address = clientAddress(ctx);
    const nowMs = Date.now();
    const windowStart = Math.floor(nowMs / 1000);
    if (!requests.take(address, windowStart, ceiling).allowed)
      throw rateLimited(ctx, ceiling, secondsToReset(windowStart, nowMs));
    if (ctx.get('x-api-key') && unknownKeys.count(address, windowStart) >= limits.anonymous)
      throw rateLimited(ctx, limits.anonymous, secondsToReset(windowStart, nowMs));
    try {
      await next();
    } finally {
      if ((ctx.state as AuthState).apiKeyProblem === 'unknown') unknownKeys.add(address, windowStart);
    }
  };
}
