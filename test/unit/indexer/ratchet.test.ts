import { expect } from 'chai';
import { computeRatchet, DEFAULT_RATCHET_SETTINGS, ratchetSettingsOf, recalculationTimes } from '../../../indexer/ratchet.js';

describe('indexer/ratchet', () => {
  it('counts recalculations from the anchor every period', () => {
    expect(recalculationTimes(1000, 1000, 100)).to.deep.equal({ lastRecalculation: 1000, nextRecalculation: 1100 });
    expect(recalculationTimes(1000, 1250, 100)).to.deep.equal({ lastRecalculation: 1200, nextRecalculation: 1300 });
    expect(recalculationTimes(1000, 900, 100), 'before the anchor: the anchor').to.deep.equal({ lastRecalculation: 1000, nextRecalculation: 1100 });
  });

  it('pays the baseline (live rate + spread) on the BASELINE curve, boosted rates when the frozen TVL qualifies', () => {
    const base = { liveRate: 4.3, anchor: 0, at: 10, settings: DEFAULT_RATCHET_SETTINGS };
    const low = computeRatchet({ ...base, frozenMeanTvl: 10 });
    expect(low).to.include({ baselineApy: 5.3, boostedApy: 7.3, boostActive: false, campaignApr: 5.3 });
    expect(computeRatchet({ ...base, frozenMeanTvl: 2_000_000 })).to.include({ boostActive: true, campaignApr: 5.3 });
  });

  it('pays only the boost gap on the BOOST_GAP curve, nothing until the TVL qualifies or without history', () => {
    const settings = { ...DEFAULT_RATCHET_SETTINGS, curve: 'BOOST_GAP' as const };
    expect(computeRatchet({ liveRate: 4, anchor: 0, at: 10, settings, frozenMeanTvl: 2_000_000 }).campaignApr).to.be.closeTo(2, 1e-12);
    expect(computeRatchet({ liveRate: 4, anchor: 0, at: 10, settings, frozenMeanTvl: 10 }).campaignApr).to.equal(0);
    expect(computeRatchet({ liveRate: 4, anchor: 0, at: 10, settings, frozenMeanTvl: null }).campaignApr).to.equal(0);
  });

  it('reads stored settings over the defaults and ignores bad values', () => {
    expect(ratchetSettingsOf({ distributionMethodParameters: { ratchet: { spread: 2, curve: 'BOOST_GAP', period: 60, boostTvl: -1 } } }))
      .to.deep.equal({ ...DEFAULT_RATCHET_SETTINGS, spread: 2, curve: 'BOOST_GAP' });
    expect(ratchetSettingsOf(null)).to.deep.equal(DEFAULT_RATCHET_SETTINGS);
  });
});
