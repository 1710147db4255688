import { expect } from 'chai';
import { serializeRoot } from '../../../../../api/routes/roots/serialize.js';

describe('api/routes/roots/serialize serializeRoot', () => {
  it('names root, chainId, epoch (hour of the timestamp), timestamp as a string and isLatest', () => {
    expect(serializeRoot({ root: '0xaa', chain_id: 5, timestamp: '7199', is_latest: true })).to.deep.equal({
      root: '0xaa',
      chainId: 5,
      epoch: 1,
      timestamp: '7199',
      isLatest: true,
    });
    expect(serializeRoot({ root: '0xbb', chain_id: 5, timestamp: '7200', is_latest: false }).epoch).to.equal(2);
  });
});
