import { BaseError } from '../internal/errors.js';
import { PROBLEMS, type Problem, type ProblemCode } from './problems/registry.js';

/** One field-level validation problem, as listed in a 400 problem body. */
export type FieldError = { field: string; message: string };

/** Statuses whose problem may go away by itself: retrying the same request later may succeed. */
const RETRYABLE_STATUSES = new Set([408, 429, 502, 503, 504]);

export type AppErrorOptions = {
  errors?: FieldError[];
  cause?: unknown;
  expose?: boolean;
  extensions?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** One of the problem's `alsoStatus` instead of its `status`. */
  status?: number;
};

/**
 * An error the API exposes as an RFC 9457 problem body (docs/architecture.md#errors-and-retries), of one
 * kind of the registry (api/problems/registry.ts): its status, code and title come from the entry.
 * `expose` false turns it into a generic 500. A 4xx is the caller's fault (`userError`); 408, 429 and
 * 502–504 are retryable unless the entry says otherwise.
 */
export class AppError extends BaseError {
  override name = 'AppError';
  readonly problem: Problem;
  readonly status: number;
  readonly code: ProblemCode;
  readonly expose: boolean;
  readonly errors?: FieldError[];
  readonly extensions: Record<string, unknown>;
  /** The problem body's `title` (RFC 9457 §3.1.4): the entry's. */
  readonly title: string;
  /** Response headers the problem carries (e.g. `Retry-After`), set by the error handler. */
  readonly headers?: Record<string, string>;

  constructor(problem: Problem, message: string, options: AppErrorOptions = {}) {
    const status = options.status ?? problem.status;
    const also: readonly number[] = 'alsoStatus' in problem ? problem.alsoStatus : [];
    if (status !== problem.status && !also.includes(status))
      throw new TypeError(`problem ${problem.code} is not answered with status ${status}`);
    const retryable = 'retryable' in problem ? problem.retryable : RETRYABLE_STATUSES.has(status);
    super(message, { cause: options.cause, retryable, userError: status < 500 });
    this.problem = problem;
    this.status = status;
    this.code = problem.code;
    this.title = problem.title;
    this.expose = options.expose ?? (status < 500 || status === 502 || status === 503 || status === 504);
    this.errors = options.errors;
    this.extensions = options.extensions ?? {};
    if (options.headers) this.headers = options.headers;
  }
}

export class ValidationError extends AppError {
  override name = 'ValidationError';
  constructor(errors: FieldError[]) {
    super(PROBLEMS.VALIDATION_FAILED, `Invalid request: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}`, {
      errors,
    });
  }
}

export class NotFoundError extends AppError {
  override name = 'NotFoundError';
  constructor(message: string) {
    super(PROBLEMS.NOT_FOUND, message);
  }
}

/** A backing service (Elasticsearch, PostgreSQL, an RPC node) failed or timed out: 503, never 500. */
export class ServiceUnavailableError extends AppError {
  override name = 'ServiceUnavailableError';
  constructor(service: string, cause?: unknown) {
    super(PROBLEMS.SERVICE_UNAVAILABLE, `${service} is unavailable, retry shortly`, { cause, extensions: { service } });
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
      PROBLEMS.SERVICE_UNAVAILABLE,
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
      PROBLEMS.REWARD_TREE_UNAVAILABLE,
      `The reward tree of the live root ${root} of chain ${chainId} is not available yet (${treeStatus}): its rewards are unknown, retry later`,
      {
        extensions: { chainId, root, treeStatus, retryAfter: REWARD_TREE_RETRY_AFTER_SECONDS },
        headers: { 'Retry-After': String(REWARD_TREE_RETRY_AFTER_SECONDS) },
      },
    );
  }
}
