import { expect } from 'chai';
import { DEFAULT_RATE_LIMITS, limitFor } from '../../../../api/middleware/rateLimit.js';

describe('api/middleware/rateLimit limitFor', function () {
  it('orders no key < tier 0 < tier 1 < tier 2 by default', function () {
    const ladder = [null, 0, 1, 2].map((tier) => limitFor(DEFAULT_RATE_LIMITS, tier));
    expect(ladder).to.deep.equal([10, 50, 200, 1000]);
  });

  it('caps unknown higher tiers at the highest one and negative ones at tier 0', function () {
    expect(limitFor({ anonymous: 1, tiers: [2, 3] }, 7)).to.equal(3);
    expect(limitFor({ anonymous: 1, tiers: [2, 3] }, -1)).to.equal(2);
  });
});
