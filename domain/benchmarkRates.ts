export type BenchmarkRate = { day: string; rate: number };

/**
 * Pure: the published daily rates of the common public JSON shape
 * (`{ refRates: [{ effectiveDate: 'YYYY-MM-DD', type: 'SOFR', percentRate: 4.31, … }] }`);
 * rows of another type or without a finite rate are skipped.
 */
export function parseBenchmarkRates(body: unknown, type = 'SOFR'): BenchmarkRate[] {
  const rows = (body as { refRates?: unknown })?.refRates;
  if (!Array.isArray(rows)) throw new Error('benchmark-rate answer has no refRates array');
  return rows
    .map((r) => r as { effectiveDate?: unknown; type?: unknown; percentRate?: unknown })
    .filter(
      (r) =>
        (r.type === undefined || r.type === type) &&
        typeof r.effectiveDate === 'string' &&
        /^\d{4}-\d{2}-\d{2}$/.test(r.effectiveDate) &&
        Number.isFinite(Number(r.percentRate)),
    )
    .map((r) => ({ day: r.effectiveDate as string, rate: Number(r.percentRate) }));
}

/**
 * Pure: the rate in force at Unix time `at`: the last published day on or before that day (UTC),
 * carried forward over days without a publication; null before the first publication.
 */
export function rateAt(
  rates: readonly BenchmarkRate[],
  at: number,
): { rate: number; day: string; carriedForward: boolean } | null {
  const day = new Date(at * 1000).toISOString().slice(0, 10);
  let best: BenchmarkRate | null = null;
  for (const r of rates) if (r.day <= day && (!best || r.day > best.day)) best = r;
  return best ? { rate: best.rate, day: best.day, carriedForward: best.day !== day } : null;
}
