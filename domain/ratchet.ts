import { rateAt, type BenchmarkRate } from './benchmarkRates.js';

/**
 * The SOFR spread ratchet (distribution type SOFR_SPREAD_RATCHET).
 *
 * Recalculations happen at t_k = anchor + k·period. At each one the rate is frozen until the next:
 * - frozen mean TVL = the opportunity's mean TVL over the 14 days before t_k;
 * - baseline APY = benchmark rate in force at t_k (the last published day, carried forward over
 *   weekends and holidays) + spread;
 * - boosted APY = baseline APY + the boost of the highest TVL tier the frozen mean TVL reaches.
 * A campaign on the BASELINE curve targets the baseline APY; one on the BOOST_GAP curve pays the gap
 * between the boosted APY and the opportunity's native APR (never below zero).
 *
 * Worked example: spread 1, tiers [{ minTvl 1M, boost 1 }, { minTvl 5M, boost 2.5 }], anchor
 * Monday 2026-01-05 00:00 UTC, period 14 days. At 2026-01-25 (t = anchor + 20 days) the last
 * recalculation is t_1 = 2026-01-19 (a Monday; rate published that day 4.30) → baseline 5.30. The
 * mean TVL over 2026-01-05..18 is 3.2M → tier 1 → boosted 6.30. With native APR 0.5 a BOOST_GAP
 * campaign pays 5.80. Had t_1 fallen on a Sunday, Friday's rate would have been carried forward.
 */
export type RatchetTier = { minTvl: number; boost: number };

export type RatchetSettings = {
  /** Percentage points over the benchmark rate. */
  spread: number;
  /** Seconds between recalculations. */
  period: number;
  /** Start of the recalculation schedule; the campaign's start when not stored. */
  anchor?: number;
  curve: 'BASELINE' | 'BOOST_GAP';
  /** TVL tiers (USD, frozen mean) → percentage points added to the baseline. */
  tiers: RatchetTier[];
};

export const DEFAULT_RATCHET_SETTINGS: RatchetSettings = {
  spread: 1,
  period: 14 * 86_400,
  curve: 'BASELINE',
  tiers: [
    { minTvl: 1_000_000, boost: 1 },
    { minTvl: 5_000_000, boost: 2.5 },
  ],
};

/** The window the frozen TVL is averaged over, before each recalculation. */
export const FREEZE_WINDOW = 14 * 86_400;

/** Pure: the last recalculation at or before `at` and the next one, counted from `anchor` every `period`. */
export function recalculationTimes(
  anchor: number,
  at: number,
  period: number,
): { lastRecalculation: number; nextRecalculation: number } {
  const last = anchor + Math.floor(Math.max(0, at - anchor) / period) * period;
  return { lastRecalculation: last, nextRecalculation: last + period };
}

/**
 * Pure: whether a campaign's settings make it a ratchet campaign: its distribution parameters name
 * the SOFR_SPREAD_RATCHET method or carry `ratchet` settings. Any other campaign has no ratchet rate
 * (issue 31: it was answered with the default settings as if they were its own).
 */
export function isRatchetCampaign(params: Record<string, unknown> | null | undefined): boolean {
  const p = params?.['distributionMethodParameters'] as Record<string, unknown> | undefined;
  if (!p || typeof p !== 'object') return false;
  const ratchet = p['ratchet'];
  return p['distributionMethod'] === 'SOFR_SPREAD_RATCHET' || (typeof ratchet === 'object' && ratchet !== null);
}

/** Pure: the settings stored with a campaign (params.distributionMethodParameters.ratchet) over the defaults; bad values fall back. */
export function ratchetSettingsOf(params: Record<string, unknown> | null | undefined): RatchetSettings {
  const s = ((params?.['distributionMethodParameters'] as Record<string, unknown> | undefined)?.['ratchet'] ??
    {}) as Record<string, unknown>;
  const num = (v: unknown, min: number) => (typeof v === 'number' && Number.isFinite(v) && v >= min ? v : undefined);
  const tiers = Array.isArray(s['tiers'])
    ? (s['tiers'] as Record<string, unknown>[])
        .filter((t) => num(t['minTvl'], 0) !== undefined && num(t['boost'], 0) !== undefined)
        .map((t) => ({ minTvl: t['minTvl'] as number, boost: t['boost'] as number }))
    : DEFAULT_RATCHET_SETTINGS.tiers;
  const anchor = num(s['anchor'], 0);
  return {
    spread: num(s['spread'], 0) ?? DEFAULT_RATCHET_SETTINGS.spread,
    period: num(s['period'], 3600) ?? DEFAULT_RATCHET_SETTINGS.period,
    curve: s['curve'] === 'BOOST_GAP' ? 'BOOST_GAP' : 'BASELINE',
    tiers,
    ...(anchor !== undefined ? { anchor } : {}),
  };
}

export type RatchetResult = {
  liveRate: number | null;
  frozenRate: number | null;
  frozenRateDay: string | null;
  frozenMeanTvl: number | null;
  lastRecalculation: number;
  nextRecalculation: number;
  baselineApy: number | null;
  boostedApy: number | null;
  campaignApr: number | null;
  /** Why the APYs are null (no benchmark rate to start from); null when they are computed. */
  reason: string | null;
};

/**
 * Pure: the ratchet at time `at` (see the module comment). Without a benchmark rate in force at
 * the recalculation the APYs are null, never guessed, and `reason` says why; a missing frozen TVL
 * reaches no tier.
 */
export function computeRatchet(p: {
  rates: readonly BenchmarkRate[];
  frozenMeanTvl: number | null;
  nativeApr: number;
  anchor: number;
  at: number;
  settings: RatchetSettings;
}): RatchetResult {
  const { lastRecalculation, nextRecalculation } = recalculationTimes(p.anchor, p.at, p.settings.period);
  const frozen = rateAt(p.rates, lastRecalculation);
  const live = rateAt(p.rates, p.at);
  const boost =
    p.frozenMeanTvl === null
      ? 0
      : Math.max(0, ...p.settings.tiers.filter((t) => p.frozenMeanTvl! >= t.minTvl).map((t) => t.boost));
  const baselineApy = frozen ? frozen.rate + p.settings.spread : null;
  const boostedApy = baselineApy === null ? null : baselineApy + boost;
  const campaignApr =
    baselineApy === null || boostedApy === null
      ? null
      : p.settings.curve === 'BASELINE'
        ? baselineApy
        : Math.max(0, boostedApy - p.nativeApr);
  return {
    liveRate: live?.rate ?? null,
    frozenRate: frozen?.rate ?? null,
    frozenRateDay: frozen?.day ?? null,
    frozenMeanTvl: p.frozenMeanTvl,
    lastRecalculation,
    nextRecalculation,
    baselineApy,
    boostedApy,
    campaignApr,
    reason: frozen
      ? null
      : p.rates.length
        ? `no benchmark rate was published on or before the last recalculation (${new Date(lastRecalculation * 1000).toISOString().slice(0, 10)})`
        : 'no benchmark rate is stored yet (the benchmark-rate job stores them from BENCHMARK_RATE_URL)',
  };
}
