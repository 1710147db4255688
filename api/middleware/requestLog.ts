import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { Logger } from '../../internal/logger.js';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Assigns a request id (the caller's `x-request-id` when well-formed), echoes it, tells the time the
 * server spent on the request in `Server-Timing: app;dur=<ms>` (shown by browsers' developer tools;
 * the search benchmark splits the API's overhead with it; a route's own entries follow), and logs one
 * line per request.
 */
export function requestLog(logger: Logger) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const incoming = ctx.get('x-request-id');
    const requestId = REQUEST_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.set('x-request-id', requestId);
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      // A route's own entries (set before) follow the app's.
      const own = ctx.response.get('server-timing');
      if (!ctx.headerSent) ctx.set('server-timing', `app;dur=${durationMs.toFixed(2)}${own ? `, ${own}` : ''}`);
      logger.info({
        msg: 'request',
        request_id: requestId,
        method: ctx.method,
        path: ctx.path,
        status: ctx.status,
        duration_ms: Math.round(durationMs * 10) / 10,
      });
    }
  };
}
