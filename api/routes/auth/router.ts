import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import { identityOf } from '../../identity/index.js';
import type { AuthState } from '../../identity/types.js';
import { requireSession } from '../../middleware/auth.js';
import { validate } from '../../validate.js';
import { linkByWallet } from './idpRepo.js';
import { idpRouter } from './idpRouter.js';
import { insertNonce, loadUser, revokeToken } from './repo.js';
import { loginBody, nonceParams, type LoginBody } from './schema.js';
import { setSessionCookie, issueSession, verifyWalletSignIn } from './session.js';
import { buildSignInMessage } from './siwe.js';
import { describe } from '../../openapi/describe.js';
import { arr, bool, int, obj, str } from '../../openapi/schemaHelpers.js';

const meSchema = {
  ...obj(
    {
      address: str,
      authenticatedAt: int,
      expiresAt: int,
      tags: arr(str),
      tier: int,
      provider: { enum: ['WALLET', 'IDP'] },
      linkedIdp: bool,
      email: str,
    },
    ['email'],
  ),
  additionalProperties: false,
};

/**
 * Wallet sessions (docs/api-behaviour.md#credentials-and-guards): GET /auth/nonce/{address}, POST /auth/login,
 * GET /auth/me, DELETE /auth/revoke; the identity-provider routes come from idpRouter.
 * Tables: auth_nonces, users, revoked_tokens, idp_links.
 */
export function authRouter(deps: ApiDeps): Router<AuthState> {
  const { lookup } = identityOf(deps);
  const router = new Router<AuthState>();
  const idp = idpRouter(deps);
  router.use(idp.routes(), idp.allowedMethods({ throw: true }));
  router.get(
    '/auth/nonce/:address',
    describe({ summary: 'A sign-in message and nonce for a wallet', response: obj({ message: str, nonce: str }) }),
    validate({ params: nonceParams }),
    async (ctx) => {
      const { address } = (ctx.state as unknown as { params: { address: string } }).params;
      // Domain, URI and chain from configuration (PUBLIC_BASE_URL, SIGN_IN_CHAIN_ID), never the Host header.
      const signIn = buildSignInMessage({ address, ...deps.config.signIn });
      await insertNonce(deps.pg, {
        nonce: signIn.nonce,
        address,
        message: signIn.message,
        expiresAt: signIn.expiresAt,
      });
      ctx.set('cache-control', 'no-store');
      ctx.body = { message: signIn.message, nonce: signIn.nonce };
    },
  );

  router.post(
    '/auth/login',
    describe({
      summary: 'Sign in with a wallet signature (sets the jwt cookie)',
      response: obj({ success: bool, token: str }, ['token']),
      errors: [401],
    }),
    validate({ body: loginBody }),
    async (ctx) => {
      const body = (ctx.state as unknown as { body: LoginBody }).body;
      const user = await verifyWalletSignIn(deps, body);
      const link = await linkByWallet(deps.pg, body.address);
      issueSession(ctx, deps, {
        address: body.address,
        tier: user.tier,
        ...(link ? { linkedIdp: true, email: link.email } : {}),
      });
    },
  );

  router.get(
    '/auth/me',
    describe({ summary: 'The session identity', response: meSchema }),
    requireSession,
    async (ctx) => {
      const session = ctx.state.session!;
      const user = await loadUser(deps.pg, session.address);
      ctx.body = {
        address: session.address,
        authenticatedAt: session.iat,
        expiresAt: session.exp,
        tags: user?.tags ?? [],
        tier: user?.tier ?? session.tier,
        provider: session.provider,
        linkedIdp: session.linkedIdp ?? false,
        ...(session.email ? { email: session.email } : {}),
      };
    },
  );

  router.delete(
    '/auth/revoke',
    describe({ summary: 'Revoke the session JWT and clear the cookie', response: obj({ success: bool }) }),
    requireSession,
    async (ctx) => {
      const session = ctx.state.session!;
      await revokeToken(deps.pg, session.jti, new Date(session.exp * 1000));
      lookup.forget(session.jti);
      setSessionCookie(ctx, deps, null);
      ctx.body = { success: true };
    },
  );
  return router;
}
