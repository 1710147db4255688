import type { Middleware } from 'koa';
import type { AppError } from '../errors.js';
import type { Schema } from '../validate.js';

/**
 * One documented response besides the problem bodies the generator adds on its own: a body of
 * `schema`, or a problem whose example is `problem`'s body (with the headers it sets, e.g. Retry-After).
 */
export type ResponseDoc = { description: string; schema?: Schema; contentType?: string; problem?: () => AppError };

/**
 * What a route says about itself for the OpenAPI document (issue #8): the request schemas come from
 * its `validate()` middleware, everything else from this. `response` is the success body (200 unless
 * `status` says otherwise); `errors` lists the problem statuses the handler itself throws (404, 409…).
 */
export type RouteDoc = {
  summary: string;
  /**
   * What the operation answers and anything an integrator must know beyond the summary (who may call
   * it, limits, side effects), from the spec and the handler's behaviour. The generator appends
   * access, paging and caching lines of its own (api/openapi/operationDescription.ts).
   */
  description: string;
  /** Example success body; by default one is built from `response` (api/openapi/examples.ts). */
  example?: unknown;
  /** Example request bodies by name (the first is the default); by default one is built from the body schema. */
  bodyExamples?: Record<string, { summary: string; value: unknown }>;
  /** The Cache-Control the handler sets itself (e.g. `no-store`), where it overrides api/middleware/cacheHeaders.ts. */
  cacheControl?: string;
  status?: number;
  response: Schema;
  contentType?: string;
  /** The same success response in other media types (content type → schema), e.g. text/csv. */
  also?: Record<string, Schema>;
  errors?: number[];
  /** Headers of the success response an integrator reads (name → what it says). */
  headers?: Record<string, string>;
  /** Extra responses (e.g. 503 from /health with its own body). */
  responses?: Record<number, ResponseDoc>;
};

export type DescribedMiddleware = Middleware & { routeDoc: RouteDoc };

/**
 * A pass-through middleware carrying the route's documentation; the OpenAPI generator finds it in
 * the router layer's stack, so the document is built from what is mounted, never written beside it.
 */
export function describe(doc: RouteDoc): DescribedMiddleware {
  const middleware = (async (_ctx, next) => next()) as DescribedMiddleware;
  middleware.routeDoc = doc;
  return middleware;
}
