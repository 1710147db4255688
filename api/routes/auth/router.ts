import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import type { AuthState } from '../../identity/types.js';
import { requireSession } from '../../middleware/auth.js';
import { validate } from '../../validate.js';
import { loginHandler, meHandler, nonceHandler, revokeHandler } from './handlers.js';
import { idpRouter } from './idpRouter.js';
import { loginBody, nonceParams } from './schema.js';
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
  const router = new Router<AuthState>();
  const idp = idpRouter(deps);
  router.use(idp.routes(), idp.allowedMethods({ throw: true }));
  router.get(
    '/auth/nonce/:address',
    describe({ summary: 'A sign-in message and nonce for a wallet', response: obj({ message: str, nonce: str }) }),
    validate({ params: nonceParams }),
    nonceHandler(deps),
  );

  router.post(
    '/auth/login',
    describe({
      summary: 'Sign in with a wallet signature (sets the jwt cookie)',
      response: obj({ success: bool, token: str }, ['token']),
      errors: [401],
    }),
    validate({ body: loginBody }),
    loginHandler(deps),
  );

  router.get(
    '/auth/me',
    describe({ summary: 'The session identity', response: meSchema }),
    requireSession,
    meHandler(deps),
  );

  router.delete(
    '/auth/revoke',
    describe({ summary: 'Revoke the session JWT and clear the cookie', response: obj({ success: bool }) }),
    requireSession,
    revokeHandler(deps),
  );
  return router;
}
