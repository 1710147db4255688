import type { Context } from 'koa';
import type { ApiDeps } from '../../deps.js';

/**
 * Sets one of our sign-in cookies for `maxAgeSeconds`, or clears it when `value` is null: HttpOnly,
 * SameSite=Lax (sent on the top-level navigation back from an identity provider, not on cross-site
 * subrequests), path /, Secure outside development and test.
 */
export function setAuthCookie(
  ctx: Context,
  deps: ApiDeps,
  name: string,
  value: string | null,
  maxAgeSeconds: number,
): void {
  const secure = deps.config.env !== 'development' && deps.config.env !== 'test';
  if (secure) ctx.cookies.secure = true; // we sit behind a TLS-terminating proxy (app.proxy is false)
  ctx.cookies.set(name, value, {
    httpOnly: true,
    sameSite: 'lax',
    secure,
    path: '/',
    overwrite: true,
    ...(value ? { maxAge: maxAgeSeconds * 1000 } : {}),
  });
}
