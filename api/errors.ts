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
  /** Response headers the problem carries (e.g. `Retry-After`), set by the error handler. */
  readonly headers?: Record<string, string>;

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
      headers?: Record<string, string>;
    } = {},
  ) {
    super(message, { cause: options.cause });
    this.status = status;
    this.code = code;
    this.expose = options.expose ?? (status < 500 || status === 502 || status === 503 || status === 504);
    this.errors = options.errors;
    this.extensions = options.extensions ?? {};
    if (options.title) this.title = options.title;
    if (options.headers) this.headers = options.headers;
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

/** Seconds a reader is told to wait for a live root's tree (`Retry-After`): a few runs of the roots job (every 10 s by default). */
export const REWARD_TREE_RETRY_AFTER_SECONDS = 30;

/**
 * The live root of a chain is known but its tree is not stored (not fetched yet, not published,
 * refused as malformed or not hashing to the root: `treeStatus`): the chain's rewards are unknown,
 * so a reward read answers this 503 with `Retry-After` (and `retryAfter` in the body, which GraphQL
 * errors carry in their extensions), never an empty list that reads as "nothing earned" (issue #42).
 */
export class RewardTreeUnavailableError extends AppError {
  override name = 'RewardTreeUnavailableError';
  constructor(chainId: number, root: string, treeStatus: string) {
    super(
      503,
      'REWARD_TREE_UNAVAILABLE',
      `The reward tree of the live root ${root} of chain ${chainId} is not available yet (${treeStatus}): its rewards are unknown, retry later`,
      {
        extensions: { chainId, root, treeStatus, retryAfter: REWARD_TREE_RETRY_AFTER_SECONDS },
        headers: { 'Retry-After': String(REWARD_TREE_RETRY_AFTER_SECONDS) },
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
