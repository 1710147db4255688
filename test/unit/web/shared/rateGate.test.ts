import { expect } from 'chai';
import { createRateGate, delayBeforeNext, holdAfterAnswer } from '../../../../web/shared/rateGate.js';

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

describe('web/shared/rateGate with the RateLimit headers of the API', () => {
  it('holds new requests until the window resets once the requests in flight would use what is left', () => {
    expect(holdAfterAnswer(5, 1, 2, 10_000), 'room left').to.equal(undefined);
    expect(holdAfterAnswer(2, 1, 2, 10_000), 'the two in flight take the rest').to.equal(11_000);
    expect(holdAfterAnswer(0, 1, 0, 10_000), 'window used').to.equal(11_000);
    expect(holdAfterAnswer(Number.NaN, 1, 0, 10_000), 'no header').to.equal(undefined);
  });

  it('starts nothing before the hold, then goes on at once', async () => {
    const gate = createRateGate(100);
    const t0 = Date.now();
    gate.holdUntil(t0 + 300);
    await gate();
    expect(Date.now() - t0).to.be.at.least(290);
    const t1 = Date.now();
    await gate();
    expect(Date.now() - t1).to.be.below(100);
  });
});
