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

/** Describes any thrown value for a log line without losing the cause chain. */
export function describeError(error: unknown): { message: string; name?: string; cause?: string } {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? error.cause.message : undefined;
    return { name: error.name, message: error.message, ...(cause ? { cause } : {}) };
  }
  return { message: String(error) };
}
