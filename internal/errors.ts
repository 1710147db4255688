import { redactText } from './redact.js';

/** What every error of ours knows about itself, decided where it enters (internal/errorSources/). */
export type ErrorTraits = {
  /** Another attempt later may succeed: an outage, a timeout, an overload, a rate limit, a race. */
  retryable: boolean;
  /** The caller's request or input is at fault: fixing it helps, retrying it as is does not. */
  userError: boolean;
};

export type BaseErrorOptions = {
  details?: Record<string, unknown>;
  cause?: unknown;
  retryable?: boolean;
  userError?: boolean;
};

/**
 * The one root of our errors (the API's AppError included, api/errors.ts): a short message,
 * structured details, a cause, and whether it is retryable and whether the caller is at fault
 * (both false unless the thrower says otherwise; a subclass may fix them with a field).
 */
export class BaseError extends Error implements ErrorTraits {
  override name = 'BaseError';
  readonly details: Record<string, unknown>;
  readonly retryable: boolean;
  readonly userError: boolean;

  constructor(message: string, options: BaseErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.details = options.details ?? {};
    this.retryable = options.retryable ?? false;
    this.userError = options.userError ?? false;
  }
}

/** A configuration variable is missing or invalid; startup stops. */
export class ConfigError extends BaseError {
  override name = 'ConfigError';
}

/**
 * Describes any thrown value for a log line, a stored run or a response without losing the cause
 * chain. The texts are redacted (internal/redact.ts): no URL credentials, paths or query strings,
 * no request bodies, whatever the error carried.
 */
export function describeError(error: unknown): { message: string; name?: string; cause?: string } {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? redactText(error.cause.message) : undefined;
    return { name: error.name, message: redactText(error.message), ...(cause ? { cause } : {}) };
  }
  return { message: redactText(String(error)) };
}
