import { expect } from 'chai';
import { unknownTvlReason } from '../../../../web/explorer/tvlText.js';

describe('web/explorer/tvlText', () => {
  it('says why a TVL is unknown, in words, and nothing when it is known', () => {
    expect(unknownTvlReason('ok')).to.equal(null);
    expect(unknownTvlReason(undefined)).to.equal(null);
    expect(unknownTvlReason('read-failed')).to.equal('reading it from the protocol failed');
    expect(unknownTvlReason('unsupported-target')).to.equal('its target cannot be read on this chain');
    expect(unknownTvlReason('unpriced')).to.equal('a token it holds has no price');
    expect(unknownTvlReason('not-computed')).to.equal('not computed yet');
    expect(unknownTvlReason('something-new')).to.equal('something-new');
  });
});
