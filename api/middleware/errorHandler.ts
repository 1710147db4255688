import { errors as esErrors } from '@elastic/elasticsearch';
import type { Context, Next } from 'koa';
import { HttpRequestError, RpcRequestError, TimeoutError } from 'viem';
import { AppError, QueryTimeoutError, STATUS_TITLES, ServiceUnavailableError } from '../errors.js';

const PROBLEM_TYPE_BASE = '/problems/';

/**
 * The RFC 9457 problem body of an exposed error (null: the generic 500) for a request to `instance`;
 * also what the OpenAPI document's problem examples are made of (api/openapi/problem.ts).
 */
export function problemBodyOf(exposed: AppError | null, instance: string, requestId: string | undefined) {
  const status = exposed?.status ?? 500;
  return {
    type: `${PROBLEM_TYPE_BASE}${(exposed?.code ?? 'INTERNAL').toLowerCase().replace(/_/g, '-')}`,
    title: exposed?.title ?? STATUS_TITLES[status] ?? 'Error',
    status,
    detail: exposed?.message ?? 'An unexpected error occurred; it has been logged.',
    instance,
    code: exposed?.code ?? 'INTERNAL',
    requestId,
    ...(exposed?.errors ? { errors: exposed.errors } : {}),
    ...(exposed?.extensions ?? {}),
  };
}

const PG_UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);
const PG_UNAVAILABLE_MESSAGE =
  /timeout exceeded when trying to connect|Connection terminated|connection error and is not queryable|the database system is (starting up|shutting down)/i;

/**
 * PostgreSQL is down, restarting or out of connections: refused or reset sockets, admin/crash
 * shutdown and cannot-connect-now (57P01–57P03), too many connections (53300), any SQLSTATE of
 * class 08 (connection exception), and node-postgres' own "Connection terminated" errors for
 * queries in flight when the server goes away.
 */
export function isPostgresUnavailable(error: unknown): boolean {
  const code = (error as { code?: string })?.code;
  if (typeof code === 'string' && (PG_UNAVAILABLE_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
  return PG_UNAVAILABLE_MESSAGE.test(String((error as Error)?.message));
}

/** Maps failures of backing services to 503 and anything carrying an HTTP status to an AppError. */
export function toAppError(error: unknown): AppError | null {
  if (error instanceof AppError) return error;
  if (
    error instanceof esErrors.ConnectionError ||
    error instanceof esErrors.TimeoutError ||
    error instanceof esErrors.NoLivingConnectionsError
  ) {
    return new ServiceUnavailableError('elasticsearch', error);
  }
  if (error instanceof HttpRequestError || error instanceof TimeoutError || error instanceof RpcRequestError)
    return new ServiceUnavailableError('rpc', error);
  if (error instanceof esErrors.ResponseError) {
    // A missing index/alias or an overloaded cluster is an outage; any other refusal means we built
    // a bad request: a server-side fault (generic 500, logged), never Elasticsearch's text to the client.
    const type = (error.body as { error?: { type?: string } } | undefined)?.error?.type;
    if (error.statusCode === 503 || error.statusCode === 429 || type === 'index_not_found_exception')
      return new ServiceUnavailableError('elasticsearch', error);
    return null;
  }
  if ((error as { code?: string })?.code === '57014') return new QueryTimeoutError(error);
  if (isPostgresUnavailable(error)) return new ServiceUnavailableError('postgresql', error);
  const status =
    (error as { status?: number; statusCode?: number })?.status ?? (error as { statusCode?: number })?.statusCode;
  const expose = (error as { expose?: boolean })?.expose;
  // 501 is @koa/router refusing a method no route implements (e.g. TRACE): for the client that is a 405.
  if (status === 501) return new AppError(405, 'METHOD_NOT_ALLOWED', 'This method is not allowed on this path');
  if (typeof status === 'number' && status >= 400 && status < 500 && expose !== false) {
    return new AppError(
      status,
      (STATUS_TITLES[status] ?? 'error').toUpperCase().replace(/ /g, '_'),
      (error as Error).message || STATUS_TITLES[status] || 'error',
    );
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
      throw new AppError(404, 'NOT_FOUND', `No route ${ctx.method} ${ctx.path}`);
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
