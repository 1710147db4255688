import conditional from 'koa-conditional-get';
import etag from '@koa/etag';
import type { Context, Next } from 'koa';

/** Seconds a CDN may serve a public read before revalidating (and stale-while-revalidate after it). */
const PUBLIC_MAX_AGE = 30;

/** A response is private when it depends on who asks: credentials sent, or private data requested. */
export function isPrivateRequest(ctx: Context): boolean {
  return Boolean(
    ctx.get('x-api-key') ||
      ctx.cookies.get('jwt') ||
      ctx.get('authorization') ||
      ctx.query['showPrivate'] === 'true' ||
      ctx.state.private,
  );
}

/**
 * A JSON body (object or array) serialized once, here: the ETag middleware hashes the string and
 * Koa sends it as is, where both would otherwise run JSON.stringify over the same body (a list of
 * 100 opportunities is ~200 KB of JSON). Same bytes, same Content-Type.
 */
function serializeOnce(ctx: Context): void {
  const body = ctx.body;
  if (
    body === null ||
    typeof body !== 'object' ||
    Buffer.isBuffer(body) ||
    typeof (body as { pipe?: unknown }).pipe === 'function'
  )
    return;
  const type = ctx.response.get('content-type');
  ctx.body = JSON.stringify(body);
  ctx.type = type || 'application/json; charset=utf-8';
}

/**
 * A user's own state (rewards, claimed amounts; on-chain balances and allowances, #33): revalidated
 * on every use (a 304 while unchanged), so a claim shows as claimed as soon as it is indexed, and an
 * approval as soon as it is mined, never 30 s later from a cache.
 */
const USER_STATE = /^\/v4\/(users\/|tokens\/balances\/?$|tokens\/[^/]+\/allowance\/)/;

export const PRIVATE_CACHE_CONTROL = 'private, no-store';

/** Cache-Control of a public GET 200 on `path` (also quoted by the OpenAPI descriptions, api/openapi/operationDescription.ts). */
export function publicCacheControl(path: string): string {
  return USER_STATE.test(path)
    ? 'public, no-cache'
    : `public, max-age=${PUBLIC_MAX_AGE}, stale-while-revalidate=${2 * PUBLIC_MAX_AGE}`;
}

/**
 * CDN-friendly caching for reads: GET/HEAD 200 answers get an ETag (koa-etag) and answer 304 to a
 * matching If-None-Match (koa-conditional-get); public ones are `public, max-age=30,
 * stale-while-revalidate=60` (a user's own state `public, no-cache`), private ones (credentials,
 * showPrivate=true) `private, no-store`.
 * Routes that set Cache-Control themselves (health, metrics) keep theirs.
 */
export function cacheHeaders() {
  const conditionalGet = conditional();
  const tag = etag({ weak: true });
  return async (ctx: Context, next: Next): Promise<void> => {
    await conditionalGet(ctx, async () => {
      await tag(ctx, async () => {
        await next();
        if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || ctx.status !== 200) return;
        serializeOnce(ctx);
        if (ctx.response.get('cache-control')) return;
        const isPrivate = isPrivateRequest(ctx);
        ctx.set('cache-control', isPrivate ? PRIVATE_CACHE_CONTROL : publicCacheControl(ctx.path));
        if (isPrivate) ctx.vary('cookie');
      });
    });
  };
}
