import type Router from '@koa/router';
import type { Context, Next } from 'koa';
import { NotFoundError } from '../errors.js';

/** RFC 3986 §2.3 unreserved characters: their percent-encoded form means the same URI (§6.2.2.2). */
const ENCODED_UNRESERVED = /%([0-9A-Fa-f]{2})/g;
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/** Decodes percent-encoded unreserved characters (`%61` → `a`); every other escape is left as sent. */
export function decodeUnreserved(path: string): string {
  return path.replace(ENCODED_UNRESERVED, (escape, hex: string) => {
    const char = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : escape;
  });
}

/** Why `path` (already decoded of unreserved escapes) is not canonical, or null when it is. */
export function nonCanonicalReason(path: string): string | null {
  if (!path.startsWith('/')) return 'does not start with /';
  const segments = path.slice(1).split('/');
  // A trailing slash is the one empty segment allowed (routes answer with and without it).
  if (segments.slice(0, -1).some((s) => s === '')) return 'has an empty segment (//)';
  // `%2E` is already `.` here (unreserved), so encoded dot segments are caught too.
  if (segments.some((s) => s === '.' || s === '..')) return 'has a dot segment';
  return null;
}

/**
 * The app's one path-spelling rule, applied before any guard or router runs (README "Path
 * spelling"): percent-encoded unreserved characters are decoded (RFC 3986 §6.2.2.2, so `%61` and
 * `a` are the same path); a path with an empty segment (`//`) or a dot segment (`.`, `..`) is a 404;
 * routes match case-sensitively (`caseSensitive`), so `/V4/INTERNAL/JOBS` is a 404 too. A trailing
 * slash stays optional. Guards and routes therefore always see the one spelling they were written for.
 */
export function canonicalPath() {
  return async (ctx: Context, next: Next): Promise<void> => {
    const decoded = decodeUnreserved(ctx.path);
    const reason = nonCanonicalReason(decoded);
    if (reason) throw new NotFoundError(`No such path: it ${reason} (paths are case-sensitive and canonical)`);
    if (decoded !== ctx.path) ctx.path = decoded;
    await next();
  };
}

type MutableLayer = {
  path: unknown;
  opts: { sensitive?: boolean };
  _reconfigurePathMatching?: (prefix: string) => void;
};

/**
 * Makes every layer of `router` (nested routers included: @koa/router copies their layers into the
 * parent's stack) match case-sensitively, as `new Router({ sensitive: true })` would have for each
 * family. Without this, @koa/router matches routes case-insensitively while the guards a prefixed
 * router mounts with `router.use(guard)` match case-sensitively: `/V4/INTERNAL/JOBS` reached the
 * route but skipped its guard. test/integration/api/authMatrix.test.ts proves the effect.
 */
export function caseSensitive<R extends Router<any, any>>(router: R): R {
  for (const layer of router.stack as unknown as MutableLayer[]) {
    if (typeof layer.path !== 'string') continue;
    if (typeof layer._reconfigurePathMatching !== 'function')
      throw new Error('@koa/router Layer changed: caseSensitive cannot recompile its path');
    layer.opts.sensitive = true;
    layer._reconfigurePathMatching('');
  }
  return router;
}
