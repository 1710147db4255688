import type { Classification } from './classification.js';

/**
 * A non-2xx answer of an HTTP source (price API, tree hosting, benchmark rates, identity provider):
 * 408, 429 and 5xx are transient (retryable; the source is `unavailable`), any other status is
 * fatal (a bad URL, key or request of ours, never the caller's fault).
 */
export function classifyHttpStatus(status: number): Classification {
  const transient = status === 408 || status === 429 || status >= 500;
  return { source: 'http', retryable: transient, userError: false, unavailable: transient, reason: `HTTP ${status}` };
}

/**
 * A fetch that got no answer (null: not such a failure): Node's fetch (undici) reports every network
 * failure (refused, reset, DNS, body cut short) as a TypeError, and AbortSignal.timeout rejects with a
 * TimeoutError; both are retryable. An AbortError is our own abort (a job stopping): not retryable.
 */
export function classifyFetchError(error: unknown): Classification | null {
  if (!(error instanceof Error)) return null;
  if (error.name === 'TimeoutError' || error.name === 'TypeError')
    return { source: 'http', retryable: true, userError: false, unavailable: true, reason: error.name };
  if (error.name === 'AbortError')
    return { source: 'http', retryable: false, userError: false, unavailable: false, reason: 'aborted' };
  return null;
}
