import { expect } from 'chai';
import { createRateGate, delayBeforeNext } from '../../../../web/shared/rateGate.js';

describe('web/shared/rateGate', () => {
  it('lets requests start at once until the per-second budget is used, then waits for the oldest to leave the window', () => {
    expect(delayBeforeNext([], 5000, 2)).to.equal(0);
    expect(delayBeforeNext([4500], 5000, 2)).to.equal(0);
    expect(delayBeforeNext([4200, 4500], 5000, 2)).to.equal(200);
    expect(delayBeforeNext([3000, 3900, 4200, 4500], 5000, 2)).to.equal(200);
    expect(delayBeforeNext([3000, 3900], 5000, 2)).to.equal(0);
  });

  it('spaces a burst so that no one-second window holds more than the budget', async () => {
    const gate = createRateGate(3);
    const started: number[] = [];
    await Promise.all(
      Array.from({ length: 5 }, async () => {
        await gate();
        started.push(Date.now());
      }),
    );
    expect(started).to.have.length(5);
    for (let i = 3; i < started.length; i++) expect(started[i]! - started[i - 3]!, `start ${i}`).to.be.at.least(999);
  });
});

describe('web/shared/rateGate with AbortSignal', () => {
  it('gives no slot to a request aborted before its turn: the next one starts at once', async () => {
    const gate = createRateGate(2);
    await gate();
    const superseded = new AbortController();
    superseded.abort();
    await gate(superseded.signal);
    const t0 = Date.now();
    await gate();
    expect(Date.now() - t0, 'the aborted request took no slot').to.be.below(100);
    const t1 = Date.now();
    await gate();
    expect(Date.now() - t1, 'a third real request waits for the window').to.be.at.least(800);
  });
});
