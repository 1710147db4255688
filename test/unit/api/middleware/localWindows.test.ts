import { expect } from 'chai';
import { LocalWindows } from '../../../../api/middleware/localWindows.js';

describe('api/middleware/localWindows', function () {
  it('grants up to the limit per bucket and window, then refuses', function () {
    const windows = new LocalWindows();
    const decisions = Array.from({ length: 4 }, () => windows.take('ip:a', 100, 3));
    expect(decisions).to.deep.equal([
      { allowed: true, remaining: 2 },
      { allowed: true, remaining: 1 },
      { allowed: true, remaining: 0 },
      { allowed: false, remaining: 0 },
    ]);
    expect(windows.take('ip:b', 100, 3).allowed, 'another bucket').to.equal(true);
    expect(windows.take('ip:a', 101, 3), 'the next window').to.deep.equal({ allowed: true, remaining: 2 });
  });

  it('only moves forward: a late request of the previous window counts in the current one', function () {
    const windows = new LocalWindows();
    windows.add('ip:a', 200);
    windows.add('ip:a', 199);
    expect(windows.count('ip:a', 200)).to.equal(2);
    expect(windows.count('ip:a', 201)).to.equal(0);
  });
});
