import { setTimeout as sleep } from 'node:timers/promises';
import { BaseError } from './errors.js';

export type BackoffDelayParams = { attempt: number; baseDelayMs: number; maxDelayMs: number };

/**
 * Pure: exponential backoff delay before retry number `attempt` (1-based): base, 2·base, 4·base, …
 * capped at `maxDelayMs`.
 */
export function backoffDelay({ attempt, baseDelayMs, maxDelayMs }: BackoffDelayParams): number {
  return Math.min(maxDelayMs, baseDelayMs * 2 ** Math.max(0, attempt - 1));
}

/** The operation still failed with a retryable error after its last allowed attempt. */
export class RetriesExhaustedError extends BaseError {
  override name = 'RetriesExhaustedError';
}

export type WithRetryParams = {
  /** Retries after the first attempt (0 = try once). */
  retries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  shouldRetry(error: unknown): boolean;
  onRetry?(info: { attempt: number; delayMs: number; error: unknown }): void;
  /** Aborting stops waiting and rethrows the abort reason. */
  signal?: AbortSignal;
};

/**
 * Runs `fn` with bounded retries and exponential backoff (docs/architecture.md#errors-and-retries): a retryable error
 * is retried up to `retries` times; a fatal one is rethrown at once.
 * @param fn receives the 1-based attempt number.
 * @throws the fatal error as is, or RetriesExhaustedError (cause: the last error) after the bound.
 */
export async function withRetry<T>(fn: (attempt: number) => Promise<T>, params: WithRetryParams): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await fn(attempt);
    } catch (error) {
      if (params.signal?.aborted || !params.shouldRetry(error)) throw error;
      if (attempt > params.retries) {
        const message = error instanceof Error ? error.message : String(error);
        throw new RetriesExhaustedError(`gave up after ${attempt} attempts: ${message}`, {
          cause: error,
          details: { attempts: attempt },
        });
      }
      const delayMs = backoffDelay({ attempt, baseDelayMs: params.baseDelayMs, maxDelayMs: params.maxDelayMs });
      params.onRetry?.({ attempt, delayMs, error });
      await sleep(delayMs, undefined, params.signal ? { signal: params.signal } : undefined);
    }
  }
}
