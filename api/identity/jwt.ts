import { randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { SessionClaims } from './types.js';

/** Session lifetime: 24 hours. */
export const SESSION_TTL_SECONDS = 24 * 60 * 60;

/** The only algorithm we sign and accept; pinned both ways so `alg: none` or RS/HS confusion never verifies. */
const ALGORITHM = 'HS256' as const;

export type SignSessionParams = { secret: string; address: string; tier: number; nowSeconds?: number; ttlSeconds?: number };

/**
 * Signs a wallet session JWT (HS256) with a fresh `jti`, `iat` and `exp`.
 * @returns the token and its claims.
 */
export function signSession({ secret, address, tier, nowSeconds = Math.floor(Date.now() / 1000), ttlSeconds = SESSION_TTL_SECONDS }: SignSessionParams): { token: string; claims: SessionClaims } {
  const claims: SessionClaims = { address: address.toLowerCase(), tier, provider: 'WALLET', jti: randomUUID(), iat: nowSeconds, exp: nowSeconds + ttlSeconds };
  return { token: jwt.sign(claims, secret, { algorithm: ALGORITHM }), claims };
}

export type VerifySessionResult = { ok: true; claims: SessionClaims } | { ok: false; problem: 'invalid' | 'expired' };

/** Verifies a session JWT: HS256 only, not expired, with the claims we issue. */
export function verifySession(token: string, secret: string): VerifySessionResult {
  try {
    const payload = jwt.verify(token, secret, { algorithms: [ALGORITHM] });
    if (typeof payload !== 'object' || payload === null) return { ok: false, problem: 'invalid' };
    const { address, tier, provider, jti, iat, exp } = payload as Record<string, unknown>;
    if (typeof address !== 'string' || typeof jti !== 'string' || typeof tier !== 'number' || provider !== 'WALLET' || typeof iat !== 'number' || typeof exp !== 'number') {
      return { ok: false, problem: 'invalid' };
    }
    return { ok: true, claims: { address, tier, provider, jti, iat, exp } };
  } catch (error) {
    return { ok: false, problem: (error as Error).name === 'TokenExpiredError' ? 'expired' : 'invalid' };
  }
}
