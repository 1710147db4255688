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
    describe({
      summary: 'A sign-in message and nonce for a wallet',
      cacheControl: 'no-store',
      description:
        'A sign-in message (EIP-4361) with a one-time nonce for `address`; the wallet signs `message` and sends it to POST /v4/auth/login before it expires.',
      response: obj({ message: str, nonce: str }),
    }),
    validate({ params: nonceParams }),
    nonceHandler(deps),
  );

  router.post(
    '/auth/login',
    describe({
      summary: 'Sign in with a wallet signature (sets the jwt cookie)',
      description:
        'Checks the signature of a message from GET /v4/auth/nonce (EOA or ERC-1271/6492 smart wallet), consumes its nonce and sets the `jwt` session cookie. 401 with the reason when the signature or nonce is not valid.',
      response: obj({ success: bool, token: str }, ['token']),
      errors: [401],
    }),
    validate({ body: loginBody }),
    loginHandler(deps),
  );

  router.get(
    '/auth/me',
    describe({
      summary: 'The session identity',
      description:
        "The session's identity: address (or `idp:<email>`), issue and expiry times, tags, tier, provider and whether an identity-provider identity is linked.",
      response: meSchema,
    }),
    requireSession,
    meHandler(deps),
  );

  router.delete(
    '/auth/revoke',
    describe({
      summary: 'Revoke the session JWT and clear the cookie',
      description: 'Revokes the session JWT (it is refused from then on) and clears the `jwt` cookie.',
      response: obj({ success: bool }),
    }),
    requireSession,
    revokeHandler(deps),
  );
  return router;
}
