/** One field-level validation problem, as listed in a 400 problem body. */
export type FieldError = { field: string; message: string };

/**
 * An error the API exposes as an RFC 9457 problem body (docs/architecture.md#errors-and-retries). `code` names the
 * problem kind; `expose` false turns it into a generic 500.
 */
export class AppError extends Error {
  override name = 'AppError';
  readonly status: number;
  readonly code: string;
  readonly expose: boolean;
  readonly errors?: FieldError[];
  readonly extensions: Record<string, unknown>;
  /** The problem body's `title` when this kind has one of its own (RFC 9457 §3.1.4); else the status's. */
  readonly title?: string;
  /** Seconds a client should wait before retrying, sent as `Retry-After` (a 503 of a busy chain, issue #43). */
  readonly retryAfter?: number;

  constructor(
    status: number,
    code: string,
    message: string,
    options: {
      errors?: FieldError[];
      cause?: unknown;
      expose?: boolean;
      extensions?: Record<string, unknown>;
      title?: string;
      retryAfter?: number;
    } = {},
  ) {
    super(message, { cause: options.cause });
    this.status = status;
    this.code = code;
    this.expose = options.expose ?? (status < 500 || status === 502 || status === 503 || status === 504);
    this.errors = options.errors;
    this.extensions = options.extensions ?? {};
    if (options.title) this.title = options.title;
    if (options.retryAfter !== undefined) this.retryAfter = options.retryAfter;
  }
}

export class ValidationError extends AppError {
  override name = 'ValidationError';
  constructor(errors: FieldError[]) {
    super(400, 'VALIDATION_FAILED', `Invalid request: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}`, {
      errors,
    });
  }
}

export class NotFoundError extends AppError {
  override name = 'NotFoundError';
  constructor(message: string) {
    super(404, 'NOT_FOUND', message);
  }
}

/** A backing service (Elasticsearch, PostgreSQL, an RPC node) failed or timed out: 503, never 500. */
export class ServiceUnavailableError extends AppError {
  override name = 'ServiceUnavailableError';
  constructor(service: string, cause?: unknown) {
    super(503, 'SERVICE_UNAVAILABLE', `${service} is unavailable, retry shortly`, { cause, extensions: { service } });
  }
}

/**
 * A read ran past PostgreSQL's statement timeout (SQLSTATE 57014, the API's read pools set one): the
 * server could not answer in time, a 503 like an outage (same code, so clients retry alike), never 500.
 */
export class QueryTimeoutError extends AppError {
  override name = 'QueryTimeoutError';
  constructor(cause?: unknown) {
    super(
      503,
      'SERVICE_UNAVAILABLE',
      'postgresql did not answer within its statement timeout: narrow the filters or retry later',
      {
        cause,
        extensions: { service: 'postgresql', reason: 'statement timeout' },
      },
    );
  }
}

/** Human title of each status we emit. */
export const STATUS_TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};
