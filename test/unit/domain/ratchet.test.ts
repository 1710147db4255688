import { expect } from 'chai';
import { parseBenchmarkRates, rateAt } from '../../../domain/benchmarkRates.js';
import {
  computeRatchet,
  DEFAULT_RATCHET_SETTINGS,
  ratchetSettingsOf,
  recalculationTimes,
} from '../../../domain/ratchet.js';

const t = (iso: string) => Date.parse(iso) / 1000;
const DAY = 86_400;
/** Published days of January 2026: weekdays only; Monday the 19th was a holiday (no publication). */
const RATES = [
  { day: '2026-01-02', rate: 4.4 },
  { day: '2026-01-05', rate: 4.35 },
  { day: '2026-01-16', rate: 4.32 },
  { day: '2026-01-20', rate: 4.3 },
];

describe('domain/ratchet and benchmark rates', () => {
  it('parses the daily published JSON shape and skips other rate types and bad rows', () => {
    const body = {
      refRates: [
        { effectiveDate: '2026-01-05', type: 'SOFR', percentRate: 4.35 },
        { effectiveDate: '2026-01-05', type: 'EFFR', percentRate: 4.33 },
        { effectiveDate: 'bad', type: 'SOFR', percentRate: 1 },
        { effectiveDate: '2026-01-06', type: 'SOFR', percentRate: 'x' },
      ],
    };
    expect(parseBenchmarkRates(body)).to.deep.equal([{ day: '2026-01-05', rate: 4.35 }]);
    expect(() => parseBenchmarkRates({})).to.throw(/refRates/);
  });

  it('carries the last published rate forward over days without a publication', () => {
    expect(rateAt(RATES, t('2026-01-17T12:00:00Z'))).to.deep.equal({
      rate: 4.32,
      day: '2026-01-16',
      carriedForward: true,
    });
    expect(rateAt(RATES, t('2026-01-19T00:00:00Z')), "holiday Monday: Friday's rate").to.deep.equal({
      rate: 4.32,
      day: '2026-01-16',
      carriedForward: true,
    });
    expect(rateAt(RATES, t('2026-01-20T00:00:00Z'))).to.deep.equal({
      rate: 4.3,
      day: '2026-01-20',
      carriedForward: false,
    });
    expect(rateAt(RATES, t('2026-01-01T00:00:00Z'))).to.equal(null);
  });

  it('counts recalculations from the anchor; a recalculation boundary belongs to the new period', () => {
    const anchor = t('2026-01-05T00:00:00Z');
    expect(recalculationTimes(anchor, anchor + 14 * DAY - 1, 14 * DAY)).to.deep.equal({
      lastRecalculation: anchor,
      nextRecalculation: anchor + 14 * DAY,
    });
    expect(recalculationTimes(anchor, anchor + 14 * DAY, 14 * DAY)).to.deep.equal({
      lastRecalculation: anchor + 14 * DAY,
      nextRecalculation: anchor + 28 * DAY,
    });
  });

  it('computes the worked example by hand: holiday recalculation, tier 1, BOOST_GAP above native APR', () => {
    const anchor = t('2026-01-05T00:00:00Z');
    const at = anchor + 20 * DAY; // 2026-01-25: last recalculation 2026-01-19, a holiday
    const settings = { ...DEFAULT_RATCHET_SETTINGS, curve: 'BOOST_GAP' as const };
    const r = computeRatchet({ rates: RATES, frozenMeanTvl: 3_200_000, nativeApr: 0.5, anchor, at, settings });
    expect(r).to.include({
      lastRecalculation: t('2026-01-19T00:00:00Z'),
      frozenRate: 4.32,
      frozenRateDay: '2026-01-16',
      liveRate: 4.3,
    });
    expect(r.baselineApy).to.be.closeTo(5.32, 1e-12);
    expect(r.boostedApy).to.be.closeTo(6.32, 1e-12);
    expect(r.campaignApr).to.be.closeTo(5.82, 1e-12);
    const baseline = computeRatchet({
      rates: RATES,
      frozenMeanTvl: 3_200_000,
      nativeApr: 0.5,
      anchor,
      at,
      settings: DEFAULT_RATCHET_SETTINGS,
    });
    expect(baseline.campaignApr).to.be.closeTo(5.32, 1e-12);
    const tier2 = computeRatchet({ rates: RATES, frozenMeanTvl: 6_000_000, nativeApr: 0, anchor, at, settings });
    expect(tier2.boostedApy).to.be.closeTo(7.82, 1e-12);
  });

  it('gives no APY without a rate in force at the recalculation, and no boost without TVL history', () => {
    const r = computeRatchet({
      rates: RATES,
      frozenMeanTvl: null,
      nativeApr: 0,
      anchor: t('2025-12-01T00:00:00Z'),
      at: t('2025-12-10T00:00:00Z'),
      settings: DEFAULT_RATCHET_SETTINGS,
    });
    expect(r).to.include({ baselineApy: null, boostedApy: null, campaignApr: null, frozenRate: null });
    const noTvl = computeRatchet({
      rates: RATES,
      frozenMeanTvl: null,
      nativeApr: 0,
      anchor: t('2026-01-05T00:00:00Z'),
      at: t('2026-01-06T00:00:00Z'),
      settings: { ...DEFAULT_RATCHET_SETTINGS, curve: 'BOOST_GAP' },
    });
    expect(noTvl.campaignApr).to.be.closeTo(noTvl.baselineApy!, 1e-12);
  });

  it('reads stored settings over the defaults and drops bad values', () => {
    expect(
      ratchetSettingsOf({
        distributionMethodParameters: {
          ratchet: {
            spread: 2,
            curve: 'BOOST_GAP',
            period: 60,
            anchor: 100,
            tiers: [
              { minTvl: 10, boost: 3 },
              { minTvl: -1, boost: 1 },
            ],
          },
        },
      }),
    ).to.deep.equal({
      spread: 2,
      period: DEFAULT_RATCHET_SETTINGS.period,
      curve: 'BOOST_GAP',
      anchor: 100,
      tiers: [{ minTvl: 10, boost: 3 }],
    });
    expect(ratchetSettingsOf(null)).to.deep.equal(DEFAULT_RATCHET_SETTINGS);
  });
});
