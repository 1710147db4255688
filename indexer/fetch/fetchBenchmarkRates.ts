import { classifyFetchError, classifyHttpStatus } from '../../internal/errorSources/http.js';
import { BaseError } from '../../internal/errors.js';
import { withRetry } from '../../internal/retry.js';
import { parseBenchmarkRates, type BenchmarkRate } from '../../domain/benchmarkRates.js';

/** The benchmark-rate source answered a non-2xx status; retryable for 408, 429 and 5xx (classifyHttpStatus). */
export class BenchmarkRateSourceError extends BaseError {
  override name = 'BenchmarkRateSourceError';
}

/** Our error's own flag, else a fetch that got no answer (classifyFetchError); a body that does not parse is fatal. */
const shouldRetry = (e: unknown): boolean =>
  e instanceof BaseError ? e.retryable : (classifyFetchError(e)?.retryable ?? false);

/** Fetches and parses the rate series from `url`, retrying transient failures (network, 408, 429, 5xx). */
export async function fetchBenchmarkRates(url: string, timeoutMs: number): Promise<BenchmarkRate[]> {
  return withRetry(
    async () => {
      const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), headers: { accept: 'application/json' } });
      if (!res.ok)
        throw new BenchmarkRateSourceError(`benchmark-rate source answered HTTP ${res.status}`, {
          retryable: classifyHttpStatus(res.status).retryable,
          details: { status: res.status },
        });
      return parseBenchmarkRates(await res.json());
    },
    { retries: 3, baseDelayMs: 250, maxDelayMs: 4000, shouldRetry },
  );
}
