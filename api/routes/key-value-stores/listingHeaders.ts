import type { Context, Next } from 'koa';
import { acceptsHeaders } from '../../middleware/corsRoutes.js';

/** The listing parameters `page`, `pageSize` and `value` may also arrive as request headers of those names; the query string wins. */
export async function listingHeaders(ctx: Context, next: Next): Promise<void> {
  const fromHeaders = Object.fromEntries(
    (['page', 'pageSize', 'value'] as const)
      .map((name) => [name, ctx.get(name)] as const)
      .filter(([name, value]) => value !== '' && ctx.query[name] === undefined),
  );
  if (Object.keys(fromHeaders).length) ctx.query = { ...ctx.query, ...fromHeaders };
  await next();
}
acceptsHeaders(listingHeaders, ['page', 'pageSize', 'value']);
