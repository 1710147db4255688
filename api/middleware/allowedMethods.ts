import type Router from '@koa/router';
import type { Context, Next } from 'koa';
import { AppError, NotFoundError } from '../errors.js';
import { PROBLEMS } from '../problems/registry.js';

type MatchedLayer = { methods: string[]; paramNames: unknown[] };

/**
 * Methods the path allows: those of the routes matching it, where a route without parameters
 * (`/developer/keys/usage`) hides the parameterized ones matching the same path (`/developer/keys/:id`).
 */
function allowedOf(ctx: Context): string[] {
  const layers = ((ctx as { matched?: MatchedLayer[] }).matched ?? []).filter((l) => l.methods.length > 0);
  const exact = layers.filter((l) => l.paramNames.length === 0);
  return [...new Set((exact.length ? exact : layers).flatMap((l) => l.methods))];
}

/** A 405 problem carrying `Allow` (the error handler copies it onto the response). */
function methodNotAllowed(ctx: Context, allow: string[]): AppError {
  return Object.assign(
    new AppError(
      PROBLEMS.METHOD_NOT_ALLOWED,
      `${ctx.method} is not allowed on this path (allowed: ${allow.join(', ')})`,
    ),
    { headers: { Allow: allow.join(', ') } },
  );
}

/**
 * @koa/router's allowedMethods({ throw: true }) with the answers issue 16 asks: a method no router
 * implements (TRACE, CONNECT…) is a 405 with `Allow` (not a 501, not a 405 without it; a 404 when no
 * route has the path), and OPTIONS and 405 advertise only the methods of the most specific routes.
 */
export function allowedMethods(router: Router) {
  const inner = router.allowedMethods({ throw: true });
  return async (ctx: Context, next: Next): Promise<void> => {
    try {
      await inner(ctx as Parameters<typeof inner>[0], next);
    } catch (error) {
      const status = (error as { status?: number }).status;
      if (status !== 501 && status !== 405) throw error;
      const allow = allowedOf(ctx);
      if (!allow.length) throw new NotFoundError(`No route ${ctx.method} ${ctx.path}`);
      throw methodNotAllowed(ctx, allow);
    }
    if (ctx.method === 'OPTIONS' && ctx.response.get('Allow')) ctx.set('Allow', allowedOf(ctx).join(', '));
  };
}
