import { withRetry } from '../../internal/retry.js';
import { parseBenchmarkRates, type BenchmarkRate } from '../../domain/benchmarkRates.js';

/** Fetches and parses the rate series from `url`, retrying transient failures (network, 429, 5xx). */
export async function fetchBenchmarkRates(url: string, timeoutMs: number): Promise<BenchmarkRate[]> {
  return withRetry(
    async () => {
      const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), headers: { accept: 'application/json' } });
      if (!res.ok)
        throw Object.assign(new Error(`benchmark-rate source answered HTTP ${res.status}`), { status: res.status });
      return parseBenchmarkRates(await res.json());
    },
    {
      retries: 3,
      baseDelayMs: 250,
      maxDelayMs: 4000,
      shouldRetry: (e) => {
        const s = (e as { status?: number }).status;
        return s === undefined || s === 429 || s >= 500;
      },
    },
  );
}
