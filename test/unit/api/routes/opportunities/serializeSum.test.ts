import { expect } from 'chai';
import { roundSum, serializeGroups, serializeSum } from '../../../../../api/reads/opportunities/serialize.js';

describe('opportunity sums as decimal strings', () => {
  it("drops the addition's rounding noise of a double sum", () => {
    expect(serializeSum(348773.97599999997)).to.equal('348773.976');
    expect(serializeSum(0.1 + 0.2)).to.equal('0.3');
  });

  it('keeps every digit of the inputs', () => {
    expect(serializeSum(123456789.123456)).to.equal('123456789.123456');
    expect(serializeSum(1e-9)).to.equal('1e-9');
    expect(roundSum(0)).to.equal(0);
  });

  it('answers null for an empty set', () => {
    expect(serializeSum(null)).to.equal(null);
    expect(serializeSum(undefined)).to.equal(null);
  });

  it('rounds the grouped sums too', () => {
    const groups = serializeGroups([
      { key: 1, doc_count: 2, tvl: { value: 0.1 + 0.2 }, dailyRewards: { value: null } },
    ]);
    expect(groups).to.deep.equal([{ key: '1', count: 2, tvl: 0.3, dailyRewards: 0 }]);
  });
});
