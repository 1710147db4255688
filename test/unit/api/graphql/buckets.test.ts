import { expect } from 'chai';
import { toBuckets } from '../../../../api/graphql/buckets.js';

describe('toBuckets (api/graphql/buckets.ts)', () => {
  it('makes a bare number one bucket without month or key', () => {
    expect(toBuckets(7, false, false)).to.deep.equal([{ month: null, key: null, value: 7 }]);
  });

  it('makes `{ key: n }` one bucket per key, and per month with a grain and no grouping', () => {
    expect(toBuckets({ 1: 2, 31337: 3 }, true, false)).to.deep.equal([
      { month: null, key: '1', value: 2 },
      { month: null, key: '31337', value: 3 },
    ]);
    expect(toBuckets({ '2026-01': 4, '2026-02': 5 }, false, true)).to.deep.equal([
      { month: '2026-01', key: null, value: 4 },
      { month: '2026-02', key: null, value: 5 },
    ]);
  });

  it('makes `{ month: { key: n } }` one bucket per month and key, months in order', () => {
    expect(toBuckets({ '2026-01': { ERC20: 1, CLAMM: 2 }, '2026-02': { ERC20: 3 } }, true, true)).to.deep.equal([
      { month: '2026-01', key: 'ERC20', value: 1 },
      { month: '2026-01', key: 'CLAMM', value: 2 },
      { month: '2026-02', key: 'ERC20', value: 3 },
    ]);
  });

  it('answers no bucket for a monthly series without a month (the distributed totals answer a bare 0 then)', () => {
    expect(toBuckets(0, false, true)).to.deep.equal([]);
    expect(toBuckets({}, true, true)).to.deep.equal([]);
    expect(toBuckets({}, true, false)).to.deep.equal([]);
  });
});
