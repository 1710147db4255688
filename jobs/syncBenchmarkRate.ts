import { fetchBenchmarkRates } from '../indexer/fetch/fetchBenchmarkRates.js';
import { withTransaction } from '../internal/pg.js';
import type { Job } from '../domain/jobs/types.js';
import { jobInfo } from '../domain/jobs/catalog.js';

/**
 * The overnight benchmark rate series (SOFR) from BENCHMARK_RATE_URL into benchmark_rates, one row
 * per published day (idempotent upsert); without a configured source the run is recorded as skipped, saying so.
 * Tables: benchmark_rates.
 */
export const syncBenchmarkRate: Job = {
  ...jobInfo('benchmark-rate'),
  async run(deps) {
    const url = deps.config.ratchet.benchmarkRateUrl;
    if (!url)
      return {
        ranges: [],
        counts: { days: 0 },
        skipped: 'BENCHMARK_RATE_URL is not set: no benchmark rate source to read (set it to the SOFR series URL)',
      };
    const rates = await fetchBenchmarkRates(url, deps.config.prices.apiTimeoutMs);
    await withTransaction(deps.pg, (tx) =>
      tx.query(
        `INSERT INTO benchmark_rates (day, rate, source) SELECT d, r, $3 FROM unnest($1::date[], $2::float8[]) AS t(d, r)
       ON CONFLICT (day) DO UPDATE SET rate = EXCLUDED.rate, source = EXCLUDED.source, fetched_at = now()`,
        [rates.map((r) => r.day), rates.map((r) => r.rate), url],
      ),
    );
    return { ranges: [], counts: { days: rates.length } };
  },
};
