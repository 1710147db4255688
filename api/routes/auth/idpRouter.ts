import Router from '@koa/router';
import { describe } from '../../openapi/describe.js';
import { bool, obj, str } from '../../openapi/schemaHelpers.js';
import type { ApiDeps } from '../../deps.js';
import type { AuthState } from '../../identity/types.js';
import { requireSession } from '../../middleware/auth.js';
import { validate } from '../../validate.js';
import { lazyOidcClient } from './idpClient.js';
import { idpCallbackHandler, idpStartHandler, linkWalletHandler } from './idpHandlers.js';
import { idpCallbackQuery, idpStartQuery, loginBody } from './schema.js';

/**
 * Identity-provider sign-in (docs/api-behaviour.md#credentials-and-guards): OpenID Connect authorization code with
 * PKCE, state and nonce. `start` records the flow, binds it to the browser (`idp_state` cookie) and
 * answers the provider URL; the `callback`, from that browser only, consumes the state once, exchanges
 * the code (a verified email required) and opens a session — `idp:<email>`, or the linked
 * wallet when the identity was linked — or, in link mode, links the identity to the wallet session
 * that started it. `POST /auth/link/wallet` merges a wallet into an IdP session with a Sign-In
 * with Ethereum signature. Without IDP_* configuration these routes answer 404.
 * Tables: idp_flows, idp_links, users, auth_nonces, revoked_tokens.
 */
export function idpRouter(deps: ApiDeps): Router<AuthState> {
  const router = new Router<AuthState>();
  const oidcClient = lazyOidcClient(deps);

  router.get(
    '/auth/idp/start',
    describe({
      summary: 'Start an identity-provider sign-in (OpenID Connect, PKCE): the URL to send the browser to',
      cacheControl: 'no-store',
      description:
        'Starts an OpenID Connect sign-in (authorization code with PKCE): returns the provider URL to send the browser to. `mode=link` links the identity to the current session instead of signing in. 404 when no identity provider is configured.',
      response: obj({ authUrl: str }),
      errors: [401, 404, 409, 502],
    }),
    validate({ query: idpStartQuery }),
    idpStartHandler(deps, oidcClient),
  );

  router.get(
    '/auth/idp/callback',
    describe({
      summary: 'Complete an identity-provider sign-in (sets the jwt cookie)',
      description:
        'Where the identity provider sends the browser back: checks `state` and the code, then sets the `jwt` cookie (or links the identity), and redirects to the configured success page when one is set.',
      response: obj({ success: bool, token: str }, ['token']),
      errors: [401, 403, 404, 409, 502],
    }),
    validate({ query: idpCallbackQuery }),
    idpCallbackHandler(deps, oidcClient),
  );

  router.post(
    '/auth/link/wallet',
    describe({
      summary: 'Merge a wallet into the identity-provider session (wallet signature as for login)',
      description:
        'Merges a wallet into the current identity-provider session: the body is as for login (a signed message from GET /v4/auth/nonce). Afterwards both identities are one wallet identity and /v4/auth/me reports `linkedIdp: true`. 409 when either is already linked elsewhere.',
      response: obj({ success: bool, token: str }, ['token']),
      errors: [403, 404, 409],
    }),
    requireSession,
    validate({ body: loginBody }),
    linkWalletHandler(deps, oidcClient),
  );
  return router;
}
