import { redactText } from './redact.js';

/** Base class of our errors: a short message, structured details and a cause. */
export class BaseError extends Error {
  override name = 'BaseError';
  readonly details: Record<string, unknown>;

  constructor(message: string, options: { details?: Record<string, unknown>; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.details = options.details ?? {};
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
