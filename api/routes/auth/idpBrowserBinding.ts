import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context } from 'koa';
import type { ApiDeps } from '../../deps.js';
import { AppError } from '../../errors.js';
import { setAuthCookie } from './cookies.js';
import { IDP_FLOW_TTL_SECONDS } from './idpRepo.js';
import { PROBLEMS } from '../../problems/registry.js';

/** The cookie that carries a started flow's state in the browser that started it. */
export const IDP_STATE_COOKIE = 'idp_state';

/**
 * Binds a started identity-provider flow to this browser: its state rides in an HttpOnly, SameSite=Lax
 * cookie for the flow's lifetime. Without it anyone could finish their own flow in a victim's browser by
 * sending it their callback URL, signing the victim in as them (login CSRF, RFC 6749 §10.12; L5 of #29).
 */
export function bindFlowToBrowser(ctx: Context, deps: ApiDeps, state: string): void {
  setAuthCookie(ctx, deps, IDP_STATE_COOKIE, state, IDP_FLOW_TTL_SECONDS);
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * Refuses (403) a callback whose `state` is not the one this browser's cookie holds; a match clears the
 * cookie, as the flow is consumed next. A mismatch leaves it, so a forged callback does not end the
 * browser's own sign-in in progress.
 */
export function requireFlowBrowser(ctx: Context, deps: ApiDeps, state: string): void {
  const bound = ctx.cookies.get(IDP_STATE_COOKIE);
  // Compared as digests: constant time whatever the lengths.
  if (!bound || !timingSafeEqual(digest(bound), digest(state)))
    throw new AppError(
      PROBLEMS.FORBIDDEN,
      `This sign-in was not started in this browser: the ${IDP_STATE_COOKIE} cookie set by GET /v4/auth/idp/start is ${bound ? 'for another sign-in' : 'missing'}; start again`,
      { errors: [{ field: 'state', message: `does not match the ${IDP_STATE_COOKIE} cookie` }] },
    );
  setAuthCookie(ctx, deps, IDP_STATE_COOKIE, null, 0);
}
