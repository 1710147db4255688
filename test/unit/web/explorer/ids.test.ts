import { expect } from 'chai';
import { ApiError } from '../../../../web/shared/api.js';
import { addressExplorerUrl, safeHttpUrl } from '../../../../web/explorer/chainLinks.js';
import { loadErrorMessage, shortId } from '../../../../web/explorer/ids.js';
import { aprRangeText } from '../../../../web/explorer/aprRangeText.js';
import { parseState, sortedBy } from '../../../../web/explorer/state.js';

describe('web/explorer ids, links, APR range and sorting', () => {
  it('shortens long ids to head and tail', () => {
    expect(shortId('0x356fc909a0fc4613d2dd3f86465c9821d122e995be29b629fe7a3a4edbedc1fb')).to.equal('0x356f…c1fb');
    expect(shortId('123')).to.equal('123');
  });

  it('says what is wrong with an id in plain words, never with the API pattern', () => {
    const refused = new ApiError(400, 'Invalid request: id must match pattern "^([0-9]{1,20}|…)$"', [
      { field: 'id', message: 'must match pattern "^([0-9]{1,20}|…)$"' },
    ]);
    const message = loadErrorMessage('campaign', 'abc', refused);
    expect(message).to.match(/^This campaign id is not valid: “abc”\./);
    expect(message).to.not.include('pattern');
    expect(loadErrorMessage('opportunity', '9', new ApiError(404, 'No opportunity 9'))).to.equal(
      'There is no opportunity with the id “9”.',
    );
    expect(loadErrorMessage('campaign', '9', new ApiError(503, 'Search is unavailable'))).to.equal(
      'The campaign could not be loaded: Search is unavailable.',
    );
  });

  it('links addresses to the chain explorer and only http(s) deposit URLs', () => {
    const chain = { explorers: [{ type: 'ETHERSCAN', url: 'https://etherscan.io/', chainId: 1 }] };
    const address = '0x663f3ad617193148711d28f5334ee4ed07016602';
    expect(addressExplorerUrl(chain, address)).to.equal(`https://etherscan.io/address/${address}`);
    expect(addressExplorerUrl({ explorers: [] }, address)).to.equal(null);
    expect(addressExplorerUrl(chain, 'not an address')).to.equal(null);
    expect(safeHttpUrl('https://app.example/deposit?x=1')).to.equal('https://app.example/deposit?x=1');
    expect(safeHttpUrl('javascript:alert(1)')).to.equal(null);
    expect(safeHttpUrl('')).to.equal(null);
  });

  it('says "no results" for an empty result and one figure when the range is a point', () => {
    expect(aprRangeText({ count: 0, minApr: null, maxApr: null })).to.equal('no results');
    expect(aprRangeText({ count: 1, minApr: '12.5', maxApr: '12.5' })).to.equal('12.5%');
    expect(aprRangeText({ count: 2, minApr: '1', maxApr: '12.5' })).to.equal('1% – 12.5%');
  });

  it('sorts by a column highest first, and flips the order on the same column', () => {
    const byApr = sortedBy({ ...parseState('?page=3'), sort: 'tvl' }, 'apr');
    expect([byApr.sort, byApr.order, byApr.page]).to.deep.equal(['apr', 'desc', 0]);
    const flipped = sortedBy(byApr, 'apr');
    expect([flipped.sort, flipped.order]).to.deep.equal(['apr', 'asc']);
  });
});
