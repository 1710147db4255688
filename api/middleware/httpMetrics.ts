import type Router from '@koa/router';
import type { Context, Next } from 'koa';
import { Counter, Histogram, Registry } from 'prom-client';
import { Stream } from 'node:stream';

type Layer = Router['stack'][number];

/** Methods reported by name; any other (a client may send any token) is `other`, so labels stay bounded. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** The route label of a request no route matches (404s of unknown paths: their paths are never labels). */
export const UNMATCHED_ROUTE = 'unmatched';

export type HttpMetrics = {
  /** This app's HTTP series, read by GET /metrics beside the operators' metrics. */
  registry: Registry;
  middleware: (ctx: Context, next: Next) => Promise<void>;
};

/** The route layer a request ran (its method's, else any, as for a 405), from layers that matched its path. */
function routeTemplate(layers: readonly Layer[], method: string): string | null {
  const routes = layers.filter((l) => l.methods.length > 0);
  const own = routes.filter((l) => l.methods.includes(method));
  const layer = own.at(-1) ?? routes.at(-1);
  return layer ? String(layer.path) : null;
}

/**
 * HTTP request metrics as prom-client's documentation and express-prom-bundle name them:
 * `http_requests_total` (counter) and `http_request_duration_seconds` (histogram, prom-client's
 * default buckets), both labelled `method`, `route` and `status_code`. `route` is the matched route's
 * template (`/v4/campaigns/:id`), never the raw path, so ids do not multiply series; a request
 * refused before routing (rate limit, CORS preflight, a bad path) is matched against `routers` for
 * its template, and one no route matches is `unmatched`. Mount it first: the duration covers every
 * middleware, and the status is the one sent (after the error handler). A streamed body is timed
 * until its last byte is written.
 */
export function createHttpMetrics({ routers }: { routers: () => Router<any, any>[] }): HttpMetrics {
  const registry = new Registry();
  const labelNames = ['method', 'route', 'status_code'] as const;
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route template and status code.',
    labelNames,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from receiving an HTTP request to sending its last byte, by method, route template and status code.',
    labelNames,
    registers: [registry],
  });
  const routeOf = (ctx: Context): string => {
    const matched = (ctx as Context & { matched?: Layer[] }).matched;
    if (matched) return routeTemplate(matched, ctx.method) ?? UNMATCHED_ROUTE;
    for (const router of routers()) {
      const template = routeTemplate(router.match(ctx.path, ctx.method).path as Layer[], ctx.method);
      if (template) return template;
    }
    return UNMATCHED_ROUTE;
  };

  return {
    registry,
    async middleware(ctx, next) {
      const started = process.hrtime.bigint();
      let failed = false;
      const record = () => {
        const labels = {
          method: METHODS.has(ctx.method) ? ctx.method : 'other',
          route: routeOf(ctx),
          // An error past the error handler is answered 500 by Koa itself.
          status_code: String(failed ? 500 : ctx.status),
        };
        requests.inc(labels);
        duration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
      };
      try {
        await next();
      } catch (error) {
        failed = true;
        throw error;
      } finally {
        if (!failed && ctx.body instanceof Stream && !ctx.res.writableFinished) ctx.res.once('close', record);
        else record();
      }
    },
  };
}
