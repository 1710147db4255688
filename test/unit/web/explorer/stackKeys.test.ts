import { expect } from 'chai';
import { stackKeys } from '../../../../web/explorer/stackKeys.js';

describe('web/explorer/stackKeys', () => {
  it('orders the keys of both charts by USD distributed, then by campaigns, then by key', () => {
    const distributed = { '2026-10': { a: 1, b: 5 }, '2026-11': { a: 6 } };
    const counts = { '2026-11': { c: 2, d: 9, b: 1 } };
    expect(stackKeys(distributed, counts)).to.deep.equal(['a', 'b', 'd', 'c']);
  });
});
