/**
 * The SOFR spread ratchet (distribution type SOFR_SPREAD_RATCHET). Our definition, since no source
 * gives the curve: rewards target a baseline APY of `liveRate + spread`; when the opportunity's TVL,
 * frozen as its mean over the 14 days before the last recalculation, reaches `boostTvl`, the target
 * ratchets up to the boosted APY `baseline + boost`. Recalculations happen every `period` seconds
 * from the anchor. A campaign on the BASELINE curve pays the baseline target; one on the BOOST_GAP
 * curve pays only the gap between boosted and baseline APYs (zero until the TVL qualifies).
 */
export type RatchetSettings = {
  /** Percentage points added to the live rate. */
  spread: number;
  /** Percentage points added to the baseline once the frozen TVL reaches boostTvl. */
  boost: number;
  /** USD TVL (frozen 14-day mean) that unlocks the boost. */
  boostTvl: number;
  curve: 'BASELINE' | 'BOOST_GAP';
  /** Seconds between recalculations. */
  period: number;
};

export const DEFAULT_RATCHET_SETTINGS: RatchetSettings = { spread: 1, boost: 2, boostTvl: 1_000_000, curve: 'BASELINE', period: 14 * 86_400 };

/** The window the frozen TVL is averaged over, before each recalculation. */
export const FREEZE_WINDOW = 14 * 86_400;

/** Pure: the last recalculation at or before `at` and the next one, counted from `anchor` every `period`. */
export function recalculationTimes(anchor: number, at: number, period: number): { lastRecalculation: number; nextRecalculation: number } {
  const elapsed = Math.max(0, at - anchor);
  const last = anchor + Math.floor(elapsed / period) * period;
  return { lastRecalculation: last, nextRecalculation: last + period };
}

/** Pure: the settings stored with a campaign (params.distributionMethodParameters.ratchet), over the defaults; bad values fall back. */
export function ratchetSettingsOf(params: Record<string, unknown> | null | undefined): RatchetSettings {
  const stored = ((params?.['distributionMethodParameters'] as Record<string, unknown> | undefined)?.['ratchet'] ?? {}) as Record<string, unknown>;
  const num = (key: 'spread' | 'boost' | 'boostTvl' | 'period', min: number) => (typeof stored[key] === 'number' && stored[key] as number >= min ? stored[key] as number : DEFAULT_RATCHET_SETTINGS[key]);
  return { spread: num('spread', 0), boost: num('boost', 0), boostTvl: num('boostTvl', 0), period: num('period', 3600), curve: stored['curve'] === 'BOOST_GAP' ? 'BOOST_GAP' : 'BASELINE' };
}

export type RatchetResult = {
  liveRate: number;
  frozenMeanTvl: number | null;
  lastRecalculation: number;
  nextRecalculation: number;
  baselineApy: number;
  boostedApy: number;
  boostActive: boolean;
  campaignApr: number;
};

/** Pure: the ratchet's rates at one point. A missing frozen TVL (no history) never unlocks the boost. */
export function computeRatchet(p: { liveRate: number; frozenMeanTvl: number | null; anchor: number; at: number; settings: RatchetSettings }): RatchetResult {
  const { lastRecalculation, nextRecalculation } = recalculationTimes(p.anchor, p.at, p.settings.period);
  const baselineApy = p.liveRate + p.settings.spread;
  const boostActive = p.frozenMeanTvl !== null && p.frozenMeanTvl >= p.settings.boostTvl;
  const boostedApy = baselineApy + p.settings.boost;
  const campaignApr = p.settings.curve === 'BASELINE' ? baselineApy : boostActive ? boostedApy - baselineApy : 0;
  return { liveRate: p.liveRate, frozenMeanTvl: p.frozenMeanTvl, lastRecalculation, nextRecalculation, baselineApy, boostedApy, boostActive, campaignApr };
}
