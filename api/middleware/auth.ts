import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context, Next, ParameterizedContext } from 'koa';
import { AppError } from '../errors.js';
import type { CredentialLookup } from '../identity/credentials.js';
import { verifySession } from '../identity/jwt.js';
import type { AuthState, CredentialProblem } from '../identity/types.js';
import { routeTemplate } from '../usage/routeTemplate.js';
import type { UsageBuffer } from '../usage/usageBuffer.js';
import { PROBLEMS } from '../problems/registry.js';

/** Koa context whose state carries the resolved identity. */
export type AuthContext = ParameterizedContext<AuthState>;

export type AuthenticateParams = {
  jwtSecret: string;
  backOfficeToken?: string;
  lookup: CredentialLookup;
  usage: UsageBuffer;
};

/** The session token: cookie `jwt`, else `Authorization: Bearer <jwt>` (the cookie wins when both are sent). */
export function sessionTokenOf(ctx: Context): string | undefined {
  const cookie = ctx.cookies.get('jwt');
  if (cookie) return cookie;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(ctx.get('authorization'));
  return match?.[1];
}

/**
 * Global, passive identity resolution (docs/api-behaviour.md#credentials-and-guards): sets ctx.state.auth from a valid
 * session JWT (HS256, unexpired, not revoked) and/or a valid `x-api-key`, else null. Bad credentials are never refused
 * here, only remembered for the guards (`requireSession`, `requireApiKey`). Every request with a valid key is counted
 * per key × endpoint (method + route pattern) × day in memory. Tables: api_keys, revoked_tokens (through `lookup`).
 */
export function authenticate({ jwtSecret, backOfficeToken, lookup, usage }: AuthenticateParams) {
  const isBackOffice = backOfficeMatcher(backOfficeToken);
  return async (ctx: Context, next: Next): Promise<void> => {
    const state = ctx.state as AuthState;
    (state.auth = null), (state.session = null), (state.apiKey = null);
    state.backOffice = isBackOffice(ctx.get('authorization'));
    const token = state.backOffice ? ctx.cookies.get('jwt') : sessionTokenOf(ctx);
    if (token) {
      const verified = verifySession(token, jwtSecret);
      if (!verified.ok) state.sessionProblem = verified.problem;
      else if (await lookup.isRevoked(verified.claims.jti)) state.sessionProblem = 'revoked';
      else state.session = verified.claims;
    }
    const rawKey = ctx.get('x-api-key');
    if (rawKey) {
      state.apiKey = await lookup.apiKey(rawKey);
      if (!state.apiKey) state.apiKeyProblem = 'unknown';
    }
    const { session, apiKey } = state;
    if (session)
      state.auth = {
        kind: 'jwt',
        address: session.address,
        tier: session.tier,
        jti: session.jti,
        ...(apiKey ? { keyId: apiKey.id } : {}),
      };
    else if (apiKey) state.auth = { kind: 'apiKey', address: apiKey.ownerAddress, tier: apiKey.tier, keyId: apiKey.id };
    try {
      await next();
    } finally {
      if (apiKey)
        usage.record(apiKey.id, `${ctx.method} ${routeTemplate((ctx as { _matchedRoute?: string })._matchedRoute)}`);
    }
  };
}

/**
 * Whether an `authorization` header carries the back-office token (raw or `Bearer <token>`),
 * compared in constant time over sha-256 digests so neither length nor content leaks.
 */
export function backOfficeMatcher(token: string | undefined): (header: string) => boolean {
  if (!token) return () => false;
  const expected = createHash('sha256').update(token).digest();
  return (header) => {
    const value = header.replace(/^Bearer\s+/i, '').trim();
    return value.length > 0 && timingSafeEqual(createHash('sha256').update(value).digest(), expected);
  };
}

const PROBLEM_TEXT: Record<CredentialProblem, string> = {
  invalid: 'is not a valid token',
  expired: 'has expired',
  revoked: 'has been revoked',
  unknown: 'is unknown or revoked',
};

/** Route guard: a wallet session (JWT) is required; an API key alone is not enough. */
export async function requireSession(ctx: AuthContext, next: Next): Promise<void> {
  if (!ctx.state.session) {
    const problem = ctx.state.sessionProblem;
    const detail = problem
      ? `The session ${PROBLEM_TEXT[problem]}`
      : 'A wallet session is required: sign in with POST /v4/auth/login';
    throw new AppError(PROBLEMS.UNAUTHORIZED, detail);
  }
  await next();
}

/** Route guard: a valid, unrevoked `x-api-key` is required. */
export async function requireApiKey(ctx: AuthContext, next: Next): Promise<void> {
  if (!ctx.state.apiKey) {
    const detail = ctx.state.apiKeyProblem
      ? `The API key ${PROBLEM_TEXT[ctx.state.apiKeyProblem]}`
      : 'An API key is required in the x-api-key header';
    throw new AppError(PROBLEMS.UNAUTHORIZED, detail);
  }
  await next();
}

/** Route guard: a wallet session or a valid `x-api-key` (the caller acts as the session's wallet or the key's owner). */
export async function requireCredential(ctx: AuthContext, next: Next): Promise<void> {
  if (!ctx.state.auth) {
    const problem = ctx.state.sessionProblem ?? ctx.state.apiKeyProblem;
    throw new AppError(
      PROBLEMS.UNAUTHORIZED,
      problem ? `The credential ${PROBLEM_TEXT[problem]}` : 'A wallet session (jwt cookie) or an x-api-key is required',
    );
  }
  await next();
}

/**
 * Route guard: the back-office credential (header `authorization`) is required. No credential or a
 * bad one is 401 (saying "required" or "refused"); a valid wallet session or API key that is not back office is 403.
 */
export async function requireBackOffice(ctx: AuthContext, next: Next): Promise<void> {
  if (!ctx.state.backOffice) {
    if (ctx.state.auth) throw new AppError(PROBLEMS.FORBIDDEN, 'This route is restricted to the back office');
    const sent = (ctx.get('authorization') ?? '').replace(/^Bearer\s+/i, '').trim() !== '';
    throw new AppError(
      PROBLEMS.UNAUTHORIZED,
      sent
        ? 'The back-office credential in the authorization header was refused'
        : 'The back-office credential is required in the authorization header',
    );
  }
  await next();
}

/**
 * Route guard: a wallet session, a valid `x-api-key` or the back-office credential (routes whose
 * handlers then decide by owner, e.g. campaign access and key-value entry deletion).
 */
export async function requireCredentialOrBackOffice(ctx: AuthContext, next: Next): Promise<void> {
  if (!ctx.state.auth && !ctx.state.backOffice) {
    const problem = ctx.state.sessionProblem ?? ctx.state.apiKeyProblem;
    throw new AppError(
      PROBLEMS.UNAUTHORIZED,
      problem
        ? `The credential ${PROBLEM_TEXT[problem]}`
        : 'A wallet session (jwt cookie), an x-api-key or the back-office credential is required',
    );
  }
  await next();
}
