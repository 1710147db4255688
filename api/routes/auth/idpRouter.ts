import Router from '@koa/router';
import { describe } from '../../openapi/describe.js';
import { bool, obj, str } from '../../openapi/schemaHelpers.js';
import * as oidc from 'openid-client';
import type { ApiDeps } from '../../deps.js';
import { AppError, ValidationError } from '../../errors.js';
import { identityOf } from '../../identity/index.js';
import { createOidcClient, type OidcClient } from '../../identity/oidcClient.js';
import type { AuthState } from '../../identity/types.js';
import { requireSession } from '../../middleware/auth.js';
import { validate } from '../../validate.js';
import { consumeFlow, insertFlow, linkByIdentity, linkIdentity } from './idpRepo.js';
import { loadUser, revokeToken } from './repo.js';
import { loginBody, type LoginBody } from './schema.js';
import { issueSession, verifyWalletSignIn } from './session.js';

const startQuery = {
  type: 'object',
  additionalProperties: false,
  required: ['mode'],
  properties: { mode: { type: 'string', enum: ['login', 'link'] } },
} as const;
const text = { type: 'string', maxLength: 2048 } as const;
/** The callback's query: the spec's code, state, error, plus what providers add (RFC 6749 §4.1.2.1, RFC 9207 `iss`). */
const callbackQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    code: text,
    state: text,
    error: text,
    error_description: text,
    error_uri: text,
    iss: text,
    session_state: text,
    scope: text,
  },
} as const;
type CallbackQuery = { code?: string; state?: string; error?: string; error_description?: string };

/** Refusal of the provider or of the exchange (bad code, PKCE, nonce) → 401; provider unreachable → 502. */
function exchangeError(error: unknown): AppError {
  if (error instanceof oidc.ResponseBodyError || error instanceof oidc.AuthorizationResponseError) {
    return new AppError(
      401,
      'UNAUTHORIZED',
      `The identity provider refused the sign-in: ${error.error}${error.error_description ? ` (${error.error_description})` : ''}`,
      { cause: error },
    );
  }
  if ((error as { code?: string }).code?.startsWith('OAUTH_'))
    return new AppError(
      401,
      'UNAUTHORIZED',
      `The identity provider's answer did not check out: ${(error as Error).message}`,
      { cause: error },
    );
  return new AppError(502, 'BAD_GATEWAY', 'The identity provider is unreachable, retry shortly', { cause: error });
}

/**
 * Identity-provider sign-in (docs/api-behaviour.md#credentials-and-guards): OpenID Connect authorization code with
 * PKCE, state and nonce. `start` records the flow and answers the provider URL; the `callback`
 * consumes the state once, exchanges the code and opens a session — `idp:<email>`, or the linked
 * wallet when the identity was linked — or, in link mode, links the identity to the wallet session
 * that started it. `POST /auth/link/wallet` merges a wallet into an IdP session with a Sign-In
 * with Ethereum signature. Without IDP_* configuration these routes answer 404.
 * Tables: idp_flows, idp_links, users, auth_nonces, revoked_tokens.
 */
export function idpRouter(deps: ApiDeps): Router<AuthState> {
  const router = new Router<AuthState>();
  const { lookup } = identityOf(deps);
  let client: OidcClient | null = null;
  const oidcClient = (): OidcClient => {
    if (!deps.config.idp)
      throw new AppError(
        404,
        'IDP_DISABLED',
        'Identity-provider sign-in is not enabled on this server (IDP_ISSUER_URL is unset)',
      );
    return (client ??= createOidcClient(deps.config.idp));
  };
  const tierOf = async (address: string) => (await loadUser(deps.pg, address))?.tier ?? 0;

  router.get(
    '/auth/idp/start',
    describe({
      summary: 'Start an identity-provider sign-in (OpenID Connect, PKCE): the URL to send the browser to',
      response: obj({ authUrl: str }),
      errors: [401, 404, 409, 502],
    }),
    validate({ query: startQuery }),
    async (ctx) => {
      const idp = oidcClient();
      const { mode } = ctx.state['query'] as { mode: 'login' | 'link' };
      const session = ctx.state.session;
      if (mode === 'link') {
        if (!session)
          throw new AppError(
            401,
            'UNAUTHORIZED',
            'Linking needs the wallet session (jwt cookie) the identity is linked to',
          );
        if (session.provider === 'IDP' || session.address.startsWith('idp:'))
          throw new AppError(
            409,
            'CONFLICT',
            'This session already is an identity-provider session: link a wallet with POST /v4/auth/link/wallet',
          );
      }
      const flow = await idp.start().catch((error: unknown) => {
        throw exchangeError(error);
      });
      await insertFlow(deps.pg, {
        state: flow.state,
        code_verifier: flow.codeVerifier,
        nonce: flow.nonce,
        mode,
        session_address: mode === 'link' ? session!.address : null,
      });
      ctx.set('cache-control', 'no-store');
      ctx.body = { authUrl: flow.authUrl };
    },
  );

  router.get(
    '/auth/idp/callback',
    describe({
      summary: 'Complete an identity-provider sign-in (sets the jwt cookie)',
      response: obj({ success: bool, token: str }, ['token']),
      errors: [401, 403, 404, 409, 502],
    }),
    validate({ query: callbackQuery }),
    async (ctx) => {
      const idp = oidcClient();
      const q = ctx.state['query'] as CallbackQuery;
      if (q.error)
        throw new AppError(
          401,
          'UNAUTHORIZED',
          `The identity provider answered ${q.error}${q.error_description ? `: ${q.error_description}` : ''}`,
          { errors: [{ field: 'error', message: q.error }] },
        );
      const missing = (['code', 'state'] as const).filter((k) => !q[k]);
      if (missing.length) throw new ValidationError(missing.map((field) => ({ field, message: 'is required' })));
      const flow = await consumeFlow(deps.pg, q.state!);
      if (!flow)
        throw new ValidationError([
          { field: 'state', message: 'is unknown, expired or already used: start the sign-in again' },
        ]);
      const identity = await idp
        .finish({
          callbackQuery: ctx.querystring,
          state: flow.state,
          codeVerifier: flow.code_verifier,
          nonce: flow.nonce,
        })
        .catch((error: unknown) => {
          throw exchangeError(error);
        });
      if (!identity.email)
        throw new AppError(403, 'FORBIDDEN', 'The identity provider did not release an email address (scope email)');
      if (identity.emailVerified === false)
        throw new AppError(403, 'FORBIDDEN', `The email ${identity.email} is not verified at the identity provider`);
      const email = identity.email.toLowerCase();
      const idpClaims = { iss: identity.issuer, sub: identity.subject };
      if (flow.mode === 'link') {
        const wallet = flow.session_address!;
        if (
          (await linkIdentity(deps.pg, {
            issuer: identity.issuer,
            subject: identity.subject,
            email,
            wallet_address: wallet,
          })) === 'conflict'
        ) {
          throw new AppError(409, 'CONFLICT', 'This identity or this wallet is already linked to another');
        }
        issueSession(ctx, deps, {
          address: wallet,
          tier: await tierOf(wallet),
          provider: 'WALLET',
          linkedIdp: true,
          email,
        });
      } else {
        const link = await linkByIdentity(deps.pg, identity.issuer, identity.subject);
        const address = link?.wallet_address ?? `idp:${email}`;
        issueSession(ctx, deps, {
          address,
          tier: await tierOf(address),
          provider: 'IDP',
          linkedIdp: Boolean(link),
          email,
          idp: idpClaims,
        });
      }
      if (deps.config.idp?.successRedirect) ctx.redirect(deps.config.idp.successRedirect);
    },
  );

  router.post(
    '/auth/link/wallet',
    describe({
      summary: 'Merge a wallet into the identity-provider session (wallet signature as for login)',
      response: obj({ success: bool, token: str }, ['token']),
      errors: [403, 404, 409],
    }),
    requireSession,
    validate({ body: loginBody }),
    async (ctx) => {
      oidcClient();
      const session = ctx.state.session!;
      if (session.provider !== 'IDP' || !session.idp)
        throw new AppError(
          403,
          'FORBIDDEN',
          'Linking a wallet needs an identity-provider session: sign in with GET /v4/auth/idp/start?mode=login',
        );
      if (!session.address.startsWith('idp:'))
        throw new AppError(409, 'CONFLICT', `This identity is already linked to ${session.address}`);
      const body = ctx.state['body'] as LoginBody;
      const user = await verifyWalletSignIn(deps, body);
      const wallet = body.address.toLowerCase();
      if (
        (await linkIdentity(deps.pg, {
          issuer: session.idp.iss,
          subject: session.idp.sub,
          email: session.email!,
          wallet_address: wallet,
        })) === 'conflict'
      ) {
        throw new AppError(409, 'CONFLICT', `${wallet} is already linked to another identity`);
      }
      // Both identities collapse into the wallet's: the IdP session ends, a wallet session replaces it.
      await revokeToken(deps.pg, session.jti, new Date(session.exp * 1000));
      lookup.forget(session.jti);
      issueSession(ctx, deps, {
        address: wallet,
        tier: user.tier,
        provider: 'WALLET',
        linkedIdp: true,
        ...(session.email ? { email: session.email } : {}),
      });
    },
  );
  return router;
}
