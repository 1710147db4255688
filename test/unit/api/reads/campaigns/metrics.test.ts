import { expect } from 'chai';
import {
  dailyAmountInToken,
  parseSeriesPaging,
  tvlInflowPerDollar,
} from '../../../../../api/reads/campaigns/metrics.js';

describe('api/reads/campaigns/metrics', () => {
  describe('parseSeriesPaging', () => {
    it('defaults to page 0, limit 100', () =>
      expect(parseSeriesPaging({}, 'tvl')).to.deep.equal({ page: 0, limit: 100 }));
    it('reads the bracket form', () =>
      expect(parseSeriesPaging({ 'tvl[page]': 2, 'tvl[limit]': 5 }, 'tvl')).to.deep.equal({ page: 2, limit: 5 }));
    it('reads the JSON form, which wins', () =>
      expect(parseSeriesPaging({ apr: '{"page":1,"limit":3}', 'apr[page]': 7 }, 'apr')).to.deep.equal({
        page: 1,
        limit: 3,
      }));
    for (const bad of ['x', '[]', '{"page":-1}', '{"limit":0}', '{"limit":1001}', '{"size":1}']) {
      it(`rejects ${bad}`, () => expect(parseSeriesPaging({ tvl: bad }, 'tvl')).to.have.property('field', 'tvl'));
    }
  });

  describe('tvlInflowPerDollar', () => {
    it('divides the TVL gained by the rewards paid in between', () => {
      expect(
        tvlInflowPerDollar([
          { ts: '0', tvl: 100, apr: null, daily_rewards: 50 },
          { ts: '172800', tvl: 400, apr: null, daily_rewards: 50 },
        ]),
      ).to.equal(3);
    });
    it('is 0 with one snapshot or no rewards', () => {
      expect(tvlInflowPerDollar([{ ts: '0', tvl: 100, apr: null, daily_rewards: 50 }])).to.equal(0);
      expect(
        tvlInflowPerDollar([
          { ts: '0', tvl: 100, apr: null, daily_rewards: 0 },
          { ts: '86400', tvl: 200, apr: null, daily_rewards: 0 },
        ]),
      ).to.equal(0);
    });
  });

  describe('dailyAmountInToken', () => {
    it('spreads the amount evenly over the window, decimals applied', () => {
      expect(dailyAmountInToken({ amount: '7000000', decimals: 6, start: '0', end: String(7 * 86_400) })).to.equal(1);
      expect(dailyAmountInToken({ amount: '1', decimals: 0, start: '5', end: '5' })).to.equal(0);
    });
  });
});
