import { expect } from 'chai';
import { createPageBoundaries } from '../../../../../api/reads/rewards/pageBoundaries.js';

const key = (n: number) => ({ amount: String(1000 - n), recipient: `0x${n}`, token: '0xt', reason: '' });

describe('api/routes/rewards/pageBoundaries', function () {
  it('starts a page from the end of the page before it', function () {
    const b = createPageBoundaries();
    b.remember('q', 0, key(0));
    b.remember('q', 1, key(1));
    expect(b.before('q', 2)).to.deep.equal({ page: 1, last: key(1) });
    expect(b.before('q', 0)).to.equal(null);
    expect(b.before('other', 2)).to.equal(null);
  });

  it('starts a page far ahead from the nearest page before it, however far (#30)', function () {
    const b = createPageBoundaries();
    for (const p of [0, 1, 2, 40]) b.remember('q', p, key(p));
    expect(b.before('q', 500)).to.deep.equal({ page: 40, last: key(40) });
    expect(b.before('q', 39)).to.deep.equal({ page: 2, last: key(2) });
  });

  it('keeps at most maxPages pages of a query and maxQueries queries, the oldest dropped', function () {
    const b = createPageBoundaries({ maxQueries: 2, maxPages: 2 });
    for (const p of [0, 1, 2]) b.remember('q', p, key(p));
    expect(b.before('q', 1)).to.equal(null);
    expect(b.before('q', 3)).to.deep.equal({ page: 2, last: key(2) });
    b.remember('r', 0, key(0));
    b.remember('s', 0, key(0));
    expect(b.before('q', 3), 'q was the least recently used').to.equal(null);
    expect(b.before('s', 1)).to.deep.equal({ page: 0, last: key(0) });
  });
});
