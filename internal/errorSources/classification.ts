import type { ErrorTraits } from '../errors.js';

/** Where a failure entered the service. */
export type ErrorSource = 'rpc' | 'postgresql' | 'elasticsearch' | 'http';

/**
 * What a source's classifier decides about a failure of that source, once, where it enters: the jobs
 * retry on `retryable`, the API answers 503 on `unavailable` (api/middleware/errorHandler.ts).
 */
export type Classification = ErrorTraits & {
  source: ErrorSource;
  /** The service is down, unreachable, overloaded or did not answer in time: the API answers 503, never 500. */
  unavailable: boolean;
  /** Why, in a few words for a log line: `ECONNREFUSED`, `statement timeout`, `HTTP 429`, … */
  reason: string;
};

/** The error and its causes, outermost first, at most 10 deep (viem and our wrappers nest them). */
export function causesOf(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let e: unknown = error; e !== undefined && e !== null && chain.length < 10; e = (e as { cause?: unknown }).cause)
    chain.push(e);
  return chain;
}
