import { expect } from 'chai';
import { parseState } from '../../../../web/explorer/state.js';
import { binsWithinFilter } from '../../../../web/explorer/visibleBins.js';

const bins = [
  { min: 0, max: 10, count: 0 },
  { min: 10, max: 20, count: 2 },
  { min: 20, max: 50, count: 7 },
  { min: 50, max: 100, count: 1 },
];

describe('web/explorer/visibleBins', () => {
  it('leaves out the bins wholly below the minimum or above the maximum; open-ended ends stay', () => {
    expect(binsWithinFilter(bins, parseState(''), 'Tvl')).to.deep.equal(bins);
    expect(binsWithinFilter(bins, parseState('?minimumTvl=15'), 'Tvl')).to.deep.equal(bins.slice(1));
    expect(binsWithinFilter(bins, parseState('?minimumTvl=20'), 'Tvl')).to.deep.equal(bins.slice(2));
    expect(binsWithinFilter(bins, parseState('?maximumTvl=20'), 'Tvl')).to.deep.equal(bins.slice(0, 3));
    expect(binsWithinFilter(bins, parseState('?minimumTvl=500'), 'Tvl'), 'the last bin is open above').to.deep.equal(
      bins.slice(3),
    );
    expect(binsWithinFilter(bins, parseState('?minimumApr=15'), 'Tvl'), 'another metric').to.deep.equal(bins);
  });
});
