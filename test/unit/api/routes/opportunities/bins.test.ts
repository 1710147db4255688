import { expect } from 'chai';
import { binEdges, niceCeil } from '../../../../../api/routes/opportunities/bins.js';

describe('api/routes/opportunities/bins', () => {
  it('rounds up to the 1-2-5 sequence', () => {
    expect([0.7, 1, 1.5, 3, 7, 11, 2000].map(niceCeil)).to.deep.equal([1, 1, 2, 5, 10, 20, 2000]);
  });

  it('gives TVL and daily rewards log-scale edges from 0, last edge above the maximum', () => {
    expect(binEdges('tvl', 0, 1_000_000)).to.deep.equal([
      0, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000,
      100000, 200000, 500000, 1000000, 2000000,
    ]);
    expect(binEdges('dailyRewards', 30, 250)).to.deep.equal([0, 10, 20, 50, 100, 200, 500]);
    expect(binEdges('tvl', 0, 0)).to.deep.equal([0, 0.01]);
  });

  it('gives APR about ten linear bins of a 1-2-5 width', () => {
    expect(binEdges('apr', 0, 150)).to.deep.equal([0, 20, 40, 60, 80, 100, 120, 140, 160]);
    expect(binEdges('apr', 0.5, 7)).to.deep.equal([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(binEdges('apr', -15, 30)).to.deep.equal([-15, -10, -5, 0, 5, 10, 15, 20, 25, 30, 35]);
  });

  it('gives no edges for an empty set', () => {
    expect(binEdges('apr', null, null)).to.deep.equal([]);
  });
});
