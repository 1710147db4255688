import type { ApiDeps } from '../../deps.js';
import { identityOf } from '../../identity/index.js';
import type { AuthContext } from '../../middleware/auth.js';
import type { Handler } from '../../validate.js';
import { linkByWallet } from './idpRepo.js';
import { insertNonce, loadUser, revokeToken } from './repo.js';
import type { loginBody, nonceParams } from './schema.js';
import { issueSession, setSessionCookie, verifyWalletSignIn } from './session.js';
import { buildSignInMessage } from './siwe.js';

/** GET /v4/auth/nonce/{address}: a Sign-In with Ethereum message for the wallet, its nonce recorded (never cached). */
export function nonceHandler(deps: ApiDeps): Handler<{ params: typeof nonceParams }> {
  return async (ctx) => {
    const { address } = ctx.state.params;
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
  };
}

/** POST /v4/auth/login: checks the signed message, consumes its nonce and opens a wallet session (jwt cookie). */
export function loginHandler(deps: ApiDeps): Handler<{ body: typeof loginBody }> {
  return async (ctx) => {
    const body = ctx.state.body;
    const user = await verifyWalletSignIn(deps, body);
    const link = await linkByWallet(deps.pg, body.address);
    issueSession(ctx, deps, {
      address: body.address,
      tier: user.tier,
      ...(link ? { linkedIdp: true, email: link.email } : {}),
    });
  };
}

/** GET /v4/auth/me: the session identity, with the user's tags and tier. */
export function meHandler(deps: ApiDeps) {
  return async (ctx: AuthContext): Promise<void> => {
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
  };
}

/** DELETE /v4/auth/revoke: revokes the session JWT and clears the cookie. */
export function revokeHandler(deps: ApiDeps) {
  const { lookup } = identityOf(deps);
  return async (ctx: AuthContext): Promise<void> => {
    const session = ctx.state.session!;
    await revokeToken(deps.pg, session.jti, new Date(session.exp * 1000));
    lookup.forget(session.jti);
    setSessionCookie(ctx, deps, null);
    ctx.body = { success: true };
  };
}
