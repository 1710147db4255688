import type { Context, Next } from 'koa';
import type { AuthState } from '../identity/types.js';
import { LocalWindows } from './localWindows.js';
import { isUnlimitedPath, rateLimited, secondsToReset, type RateLimits } from './rateLimit.js';

export type AddressScreenParams = {
  limits: RateLimits;
  /** Requests per second of one address across its API keys (the rate limit's `perAddress`); default: the highest limit. */
  perAddress?: number | undefined;
  /** The caller's address key, as every per-address limit reads it (clientKeyOf(config.trustedProxies)). */
  clientKey: (ctx: Context) => string;
};

/**
 * A per-address limit (an IPv6 client by its /64: clientKey) counted in this process's memory, in front of `authenticate` (L4 of #29):
 * credential lookups query PostgreSQL, and random well-formed API keys used to cost a query each
 * even on a 429. Per client address and one-second window:
 * - every request counts against the most one address may pass: the anonymous limit or the
 *   address's limit across its keys (RATE_LIMIT_PER_ADDRESS, by default the highest of RATE_LIMITS),
 *   so a legitimate caller is never refused here before its own limit;
 * - once `limits.anonymous` API keys sent from the address turned out unknown, further requests
 *   carrying a key are refused without a lookup for the rest of the window (an unknown key is an
 *   anonymous caller, and that is the anonymous budget). A valid key sent from the same address is
 *   refused too until the window ends.
 * Refusals are the rate limit's 429 (RateLimit-*, Retry-After); no PostgreSQL is touched.
 */
export function addressScreen({ limits, perAddress, clientKey }: AddressScreenParams) {
  const requests = new LocalWindows();
  const unknownKeys = new LocalWindows();
  const ceiling = Math.max(limits.anonymous, perAddress ?? Math.max(...limits.tiers));
  return async (ctx: Context, next: Next): Promise<void> => {
    if (isUnlimitedPath(ctx.path)) return next();
    const address = clientKey(ctx);
    const nowMs = Date.now();
    const windowStart = Math.floor(nowMs / 1000);
    if (!requests.take(address, windowStart, ceiling).allowed)
      throw rateLimited(ctx, ceiling, secondsToReset(windowStart, nowMs), 'address');
    if (ctx.get('x-api-key') && unknownKeys.count(address, windowStart) >= limits.anonymous)
      throw rateLimited(ctx, limits.anonymous, secondsToReset(windowStart, nowMs));
    try {
      await next();
    } finally {
      if ((ctx.state as AuthState).apiKeyProblem === 'unknown') unknownKeys.add(address, windowStart);
    }
  };
}
