import conditional from 'koa-conditional-get';
import etag from '@koa/etag';
import type { Context, Next } from 'koa';

/** Seconds a CDN may serve a public read before revalidating (and stale-while-revalidate after it). */
const PUBLIC_MAX_AGE = 30;

/** A response is private when it depends on who asks: credentials sent, or private data requested. */
export function isPrivateRequest(ctx: Context): boolean {
  return Boolean(ctx.get('x-api-key') || ctx.cookies.get('jwt') || ctx.get('authorization') || ctx.query['showPrivate'] === 'true' || ctx.state.private);
}

/**
 * CDN-friendly caching for reads: GET/HEAD 200 answers get an ETag (koa-etag) and answer 304 to a
 * matching If-None-Match (koa-conditional-get); public ones are `public, max-age=30,
 * stale-while-revalidate=60`, private ones (credentials, showPrivate=true) `private, no-store`.
 * Routes that set Cache-Control themselves (health, metrics) keep theirs.
 */
export function cacheHeaders() {
  const conditionalGet = conditional();
  const tag = etag();
  return async (ctx: Context, next: Next): Promise<void> => {
    await conditionalGet(ctx, async () => {
      await tag(ctx, async () => {
        await next();
        if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || ctx.status !== 200 || ctx.response.get('cache-control')) return;
        const isPrivate = isPrivateRequest(ctx);
        ctx.set('cache-control', isPrivate ? 'private, no-store' : `public, max-age=${PUBLIC_MAX_AGE}, stale-while-revalidate=${2 * PUBLIC_MAX_AGE}`);
        if (isPrivate) ctx.vary('cookie');
      });
    });
  };
}
