import type { Context, Next } from 'koa';
import { classifySourceError } from '../../internal/errorSources/index.js';
import { AppError, QueryTimeoutError, ServiceUnavailableError } from '../errors.js';
import { PROBLEMS, problemOfStatus, problemTypeOf } from '../problems/registry.js';

/**
 * The RFC 9457 problem body of an exposed error (null: the generic 500) for a request to `instance`;
 * also what the OpenAPI document's problem examples are made of (api/openapi/problem.ts).
 */
export function problemBodyOf(exposed: AppError | null, instance: string, requestId: string | undefined) {
  const status = exposed?.status ?? 500;
  return {
    type: problemTypeOf(exposed?.code ?? PROBLEMS.INTERNAL.code),
    title: exposed?.title ?? PROBLEMS.INTERNAL.title,
    status,
    detail: exposed?.message ?? 'An unexpected error occurred; it has been logged.',
    instance,
    code: exposed?.code ?? PROBLEMS.INTERNAL.code,
    requestId,
    ...(exposed?.errors ? { errors: exposed.errors } : {}),
    ...(exposed?.extensions ?? {}),
  };
}

/** Maps failures of backing services to 503 and anything carrying an HTTP 4xx status to an AppError of its generic problem. */
export function toAppError(error: unknown): AppError | null {
  if (error instanceof AppError) return error;
  // Each source's classifier (internal/errorSources/) decides: an outage or timeout is a 503, never a 500.
  const classified = classifySourceError(error);
  if (classified?.unavailable)
    return classified.reason === 'statement timeout'
      ? new QueryTimeoutError(error)
      : new ServiceUnavailableError(classified.source, error);
  // Contention (a lock wait past the API's lock_timeout, a deadlock, a serialization failure): the same request
  // may well pass a moment later, so it is a 503 to retry, never a 500.
  if (classified?.source === 'postgresql' && classified.retryable)
    return new ServiceUnavailableError('postgresql', error);
  // Any other refusal of Elasticsearch means we built a bad request: a server-side fault (generic 500,
  // logged), never Elasticsearch's text (nor its status) to the client.
  if (classified?.source === 'elasticsearch') return null;
  const status =
    (error as { status?: number; statusCode?: number })?.status ?? (error as { statusCode?: number })?.statusCode;
  const expose = (error as { expose?: boolean })?.expose;
  // 501 is @koa/router refusing a method no route implements (e.g. TRACE): for the client that is a 405.
  if (status === 501) return new AppError(PROBLEMS.METHOD_NOT_ALLOWED, 'This method is not allowed on this path');
  if (typeof status === 'number' && status >= 400 && status < 500 && expose !== false) {
    const problem = problemOfStatus(status);
    return new AppError(problem, (error as Error).message || problem.title);
  }
  return null;
}

/**
 * First middleware: turns every failure into an RFC 9457 problem body (`application/problem+json`).
 * Unknown errors become a generic 500 and are emitted on the app's `error` event for logging.
 */
export async function errorHandler(ctx: Context, next: Next): Promise<void> {
  try {
    await next();
    if (ctx.status === 404 && ctx.body === undefined)
      throw new AppError(PROBLEMS.NOT_FOUND, `No route ${ctx.method} ${ctx.path}`);
  } catch (error) {
    const appError = toAppError(error);
    const exposed = appError?.expose ? appError : null;
    const status = exposed?.status ?? 500;
    ctx.status = status;
    ctx.type = 'application/problem+json';
    ctx.body = problemBodyOf(exposed, ctx.path, ctx.state.requestId as string | undefined);
    if (exposed?.headers) ctx.set(exposed.headers);
    if (status === 405 && (error as { headers?: Record<string, string> }).headers?.['Allow'])
      ctx.set('Allow', (error as { headers: Record<string, string> }).headers['Allow']!);
    if (!exposed || status >= 500) ctx.app.emit('error', error, ctx);
  }
}
