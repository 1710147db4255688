import type { ApiDeps } from '../../deps.js';
import { AppError, ValidationError } from '../../errors.js';
import { identityOf } from '../../identity/index.js';
import type { OidcClient } from '../../identity/oidcClient.js';
import type { Handler } from '../../validate.js';
import { bindFlowToBrowser, requireFlowBrowser } from './idpBrowserBinding.js';
import { exchangeError } from './idpClient.js';
import { consumeFlow, insertFlow, linkByIdentity, linkIdentity } from './idpRepo.js';
import { loadUser, revokeToken } from './repo.js';
import type { idpCallbackQuery, idpStartQuery, loginBody } from './schema.js';
import { issueSession, verifyWalletSignIn } from './session.js';
import { PROBLEMS } from '../../problems/registry.js';

const tierOf = async (deps: ApiDeps, address: string) => (await loadUser(deps.pg, address))?.tier ?? 0;

/**
 * GET /v4/auth/idp/start: records the flow (state, PKCE verifier, nonce), binds it to this browser (the
 * `idp_state` cookie, 10 minutes) and answers the provider URL. `mode=link` needs a wallet session (401 without, 409 for an identity-provider session).
 */
export function idpStartHandler(deps: ApiDeps, oidcClient: () => OidcClient): Handler<{ query: typeof idpStartQuery }> {
  return async (ctx) => {
    const idp = oidcClient();
    const { mode } = ctx.state.query;
    const session = ctx.state.session;
    if (mode === 'link') {
      if (!session)
        throw new AppError(
          PROBLEMS.UNAUTHORIZED,
          'Linking needs the wallet session (jwt cookie) the identity is linked to',
        );
      if (session.provider === 'IDP' || session.address.startsWith('idp:'))
        throw new AppError(
          PROBLEMS.CONFLICT,
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
    bindFlowToBrowser(ctx, deps, flow.state);
    ctx.set('cache-control', 'no-store');
    ctx.body = { authUrl: flow.authUrl };
  };
}

/**
 * GET /v4/auth/idp/callback: in the browser that started the flow only (its `idp_state` cookie, else 403),
 * consumes the state once, exchanges the code and opens a session
 * (`idp:<email>`, or the linked wallet), or in link mode links the identity to the wallet that started it.
 */
export function idpCallbackHandler(
  deps: ApiDeps,
  oidcClient: () => OidcClient,
): Handler<{ query: typeof idpCallbackQuery }> {
  return async (ctx) => {
    const idp = oidcClient();
    const q = ctx.state.query;
    if (q.error)
      throw new AppError(
        PROBLEMS.UNAUTHORIZED,
        `The identity provider answered ${q.error}${q.error_description ? `: ${q.error_description}` : ''}`,
        { errors: [{ field: 'error', message: q.error }] },
      );
    const missing = (['code', 'state'] as const).filter((k) => !q[k]);
    if (missing.length) throw new ValidationError(missing.map((field) => ({ field, message: 'is required' })));
    requireFlowBrowser(ctx, deps, q.state!);
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
      throw new AppError(PROBLEMS.FORBIDDEN, 'The identity provider did not release an email address (scope email)');
    // Only an explicit `email_verified: true` (OIDC Core §5.1): an unverified address, or a provider that does
    // not say, could claim someone else's email and with it their `idp:<email>` identity (L5 of #29).
    if (identity.emailVerified !== true)
      throw new AppError(
        PROBLEMS.FORBIDDEN,
        identity.emailVerified === false
          ? `The email ${identity.email} is not verified at the identity provider`
          : `The identity provider did not state that ${identity.email} is verified (email_verified claim missing)`,
      );
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
        throw new AppError(PROBLEMS.CONFLICT, 'This identity or this wallet is already linked to another');
      }
      issueSession(ctx, deps, {
        address: wallet,
        tier: await tierOf(deps, wallet),
        provider: 'WALLET',
        linkedIdp: true,
        email,
      });
    } else {
      const link = await linkByIdentity(deps.pg, identity.issuer, identity.subject);
      const address = link?.wallet_address ?? `idp:${email}`;
      issueSession(ctx, deps, {
        address,
        tier: await tierOf(deps, address),
        provider: 'IDP',
        linkedIdp: Boolean(link),
        email,
        idp: idpClaims,
      });
    }
    if (deps.config.idp?.successRedirect) ctx.redirect(deps.config.idp.successRedirect);
  };
}

/**
 * POST /v4/auth/link/wallet: merges a wallet (signed as for login) into the identity-provider session;
 * the IdP session is revoked and a wallet session replaces it.
 */
export function linkWalletHandler(deps: ApiDeps, oidcClient: () => OidcClient): Handler<{ body: typeof loginBody }> {
  const { lookup } = identityOf(deps);
  return async (ctx) => {
    oidcClient();
    const session = ctx.state.session!;
    if (session.provider !== 'IDP' || !session.idp)
      throw new AppError(
        PROBLEMS.FORBIDDEN,
        'Linking a wallet needs an identity-provider session: sign in with GET /v4/auth/idp/start?mode=login',
      );
    if (!session.address.startsWith('idp:'))
      throw new AppError(PROBLEMS.CONFLICT, `This identity is already linked to ${session.address}`);
    const body = ctx.state.body;
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
      throw new AppError(PROBLEMS.CONFLICT, `${wallet} is already linked to another identity`);
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
  };
}
