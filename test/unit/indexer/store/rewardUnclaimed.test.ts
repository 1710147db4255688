import { expect } from 'chai';
import { sumsWhole } from '../../../../indexer/store/rewardUnclaimed.js';

describe('indexer/store/rewardUnclaimed sumsWhole', function () {
  it('moves the previous tree’s rows while fewer than half its leaves changed, and sums the tree whole after', function () {
    expect(sumsWhole({ leaves: 1_000_000, changed: 10_000 })).to.equal(false);
    expect(sumsWhole({ leaves: 1_000_000, changed: 499_999 })).to.equal(false);
    expect(sumsWhole({ leaves: 1_000_000, changed: 500_000 })).to.equal(true);
    expect(sumsWhole({ leaves: 100, changed: 150 })).to.equal(true);
  });

  it('moves the rows when the previous tree’s size is unknown', function () {
    expect(sumsWhole({ leaves: null, changed: 10 })).to.equal(false);
  });
});
