import type { Context, Next } from 'koa';

/**
 * Headers every response carries, errors included (mounted before the error handler):
 * `X-Content-Type-Options: nosniff`, so a browser never runs a JSON or text answer as a script or
 * a page. Pages set their own Content-Security-Policy (web, /docs, GraphiQL).
 */
export function securityHeaders() {
  return async (ctx: Context, next: Next): Promise<void> => {
    ctx.set('x-content-type-options', 'nosniff');
    await next();
  };
}
