import { randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { SessionClaims } from './types.js';

/** Session lifetime: 24 hours. */
export const SESSION_TTL_SECONDS = 24 * 60 * 60;

/** The only algorithm we sign and accept; pinned both ways so `alg: none` or RS/HS confusion never verifies. */
const ALGORITHM = 'HS256' as const;

export type SignSessionParams = {
  secret: string;
  address: string;
  tier: number;
  nowSeconds?: number;
  ttlSeconds?: number;
  /** Default WALLET. */
  provider?: SessionClaims['provider'];
  linkedIdp?: boolean;
  email?: string;
  idp?: SessionClaims['idp'];
};

/**
 * Signs a session JWT (HS256) with a fresh `jti`, `iat` and `exp`.
 * @returns the token and its claims.
 */
export function signSession({
  secret,
  address,
  tier,
  nowSeconds = Math.floor(Date.now() / 1000),
  ttlSeconds = SESSION_TTL_SECONDS,
  provider = 'WALLET',
  linkedIdp,
  email,
  idp,
}: SignSessionParams): { token: string; claims: SessionClaims } {
  const claims: SessionClaims = {
    address: address.toLowerCase(),
    tier,
    provider,
    jti: randomUUID(),
    iat: nowSeconds,
    exp: nowSeconds + ttlSeconds,
    ...(linkedIdp ? { linkedIdp: true } : {}),
    ...(email ? { email } : {}),
    ...(idp ? { idp: { iss: idp.iss, sub: idp.sub } } : {}),
  };
  return { token: jwt.sign(claims, secret, { algorithm: ALGORITHM }), claims };
}

export type VerifySessionResult = { ok: true; claims: SessionClaims } | { ok: false; problem: 'invalid' | 'expired' };

/** Verifies a session JWT: HS256 only, not expired, with the claims we issue. */
export function verifySession(token: string, secret: string): VerifySessionResult {
  try {
    const payload = jwt.verify(token, secret, { algorithms: [ALGORITHM] });
    if (typeof payload !== 'object' || payload === null) return { ok: false, problem: 'invalid' };
    const { address, tier, provider, jti, iat, exp, linkedIdp, email, idp } = payload as Record<string, unknown>;
    const idpOk =
      idp === undefined ||
      (typeof idp === 'object' &&
        idp !== null &&
        typeof (idp as { iss?: unknown }).iss === 'string' &&
        typeof (idp as { sub?: unknown }).sub === 'string');
    if (
      typeof address !== 'string' ||
      typeof jti !== 'string' ||
      typeof tier !== 'number' ||
      (provider !== 'WALLET' && provider !== 'IDP') ||
      typeof iat !== 'number' ||
      typeof exp !== 'number' ||
      (linkedIdp !== undefined && linkedIdp !== true) ||
      (email !== undefined && typeof email !== 'string') ||
      !idpOk
    ) {
      return { ok: false, problem: 'invalid' };
    }
    return {
      ok: true,
      claims: {
        address,
        tier,
        provider,
        jti,
        iat,
        exp,
        ...(linkedIdp ? { linkedIdp } : {}),
        ...(typeof email === 'string' ? { email } : {}),
        ...(idp ? { idp: { iss: (idp as { iss: string }).iss, sub: (idp as { sub: string }).sub } } : {}),
      },
    };
  } catch (error) {
    return { ok: false, problem: (error as Error).name === 'TokenExpiredError' ? 'expired' : 'invalid' };
  }
}
