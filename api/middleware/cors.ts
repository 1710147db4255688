import type Router from '@koa/router';
import type { Context, Next } from 'koa';
import { createCorsRouteTable, type CorsPath } from './corsRoutes.js';

export type CorsParams = {
  /** Origins allowed on credentialed routes (config.corsOrigins, env CORS_ORIGINS). */
  allowedOrigins: readonly string[];
  /** The app's routers, read on first use (their stacks are complete by then). */
  routers: () => Router[];
};

/** Response headers a page may read besides the CORS-safelisted ones. */
export const EXPOSED_HEADERS = [
  'ETag',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'Retry-After',
  'Server-Timing',
  'X-Config-Association',
  'X-Request-Id',
].join(', ');
/** How long a browser may reuse a preflight answer (Chromium caps it at 2 h). */
export const PREFLIGHT_MAX_AGE_SECONDS = 600;

/**
 * Cross-origin access, per route as read from the router stacks (api/middleware/corsRoutes.ts):
 * - public routes (no guard) answer any origin with `Access-Control-Allow-Origin: *` and no
 *   credentials; a listed origin sending the `jwt` cookie (a credentialed fetch, e.g. `showPrivate`)
 *   gets its origin and `Access-Control-Allow-Credentials: true` back (such answers are `private, no-store`);
 * - credentialed routes (a guard: session cookie, `x-api-key`, back office) answer only the
 *   `allowedOrigins`, with `Access-Control-Allow-Credentials: true`; other origins get no CORS
 *   headers, so the browser refuses to show the answer;
 * - preflights (`OPTIONS` with `Access-Control-Request-Method`) are answered here, 204, before
 *   authentication and the rate limit (nothing touches PostgreSQL): the methods the path serves
 *   for that origin and the headers the requested route reads;
 * - `Vary: Origin` wherever the answer depends on the origin (credentialed routes, preflights,
 *   echoed origins); a public `*` answer is the same for everyone and does not vary.
 * Requests without `Origin` (curl, servers, same-origin GETs) pass untouched, at no cost.
 */
export function cors({ allowedOrigins, routers }: CorsParams) {
  const allowed = new Set(allowedOrigins);
  const routesOf = createCorsRouteTable(routers);
  const isListed = (origin: string) => allowed.has(origin.toLowerCase());
  return async (ctx: Context, next: Next): Promise<void> => {
    const origin = ctx.get('origin');
    if (!origin) return next();
    const listed = isListed(origin);
    const requestedMethod = ctx.get('access-control-request-method').toUpperCase();
    if (ctx.method === 'OPTIONS' && requestedMethod)
      return preflight(ctx, origin, requestedMethod, routesOf(ctx.path), listed);
    const route = routesOf(ctx.path).get(ctx.method === 'HEAD' ? 'GET' : ctx.method);
    if (route?.credentialed) {
      ctx.vary('Origin');
      if (listed) allowCredentialed(ctx, origin);
    } else if (listed && ctx.cookies.get('jwt')) {
      ctx.vary('Origin');
      allowCredentialed(ctx, origin);
    } else {
      ctx.set('Access-Control-Allow-Origin', '*');
    }
    if (ctx.response.get('Access-Control-Allow-Origin')) ctx.set('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    await next();
  };
}

function allowCredentialed(ctx: Context, origin: string): void {
  ctx.set('Access-Control-Allow-Origin', origin);
  ctx.set('Access-Control-Allow-Credentials', 'true');
}

/** 204 to a preflight: allowed (origin, methods, headers, max-age) or refused (no CORS headers). */
function preflight(ctx: Context, origin: string, requestedMethod: string, routes: CorsPath, listed: boolean): void {
  ctx.vary('Origin');
  ctx.status = 204;
  const method = requestedMethod === 'HEAD' ? 'GET' : requestedMethod;
  const route = routes.get(method);
  if (!route || (route.credentialed && !listed)) return;
  const methods = [...routes].filter(([, r]) => listed || !r.credentialed).map(([m]) => m);
  if (listed) allowCredentialed(ctx, origin);
  else ctx.set('Access-Control-Allow-Origin', '*');
  ctx.set('Access-Control-Allow-Methods', methods.join(', '));
  // Public routes take the session (Authorization: Bearer) only from listed origins, like the cookie.
  const headers = listed ? route.headers : route.headers.filter((h) => h !== 'authorization');
  ctx.set('Access-Control-Allow-Headers', headers.join(', '));
  ctx.set('Access-Control-Max-Age', String(PREFLIGHT_MAX_AGE_SECONDS));
}
