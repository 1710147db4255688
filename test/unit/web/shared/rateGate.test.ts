import { expect } from 'chai';
import { mock } from 'node:test';
import { createRateGate, delayBeforeNext, holdAfterAnswer } from '../../../../web/shared/rateGate.js';

/** Lets every promise continuation that is ready run (setImmediate is not faked). */
const flush = () => new Promise((resolve) => setImmediate(resolve));

/** Moves the faked clock and timers by `ms`, 10 ms at a time, letting continuations run at each step. */
async function advance(ms: number): Promise<void> {
  await flush();
  for (let moved = 0; moved < ms; moved += 10) {
    mock.timers.tick(Math.min(10, ms - moved));
    await flush();
  }
}

/** The gate's clock (Date.now) and its waits (setTimeout) faked: time is the subject, so the test moves it. */
function withFakeTime() {
  beforeEach(() => mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 1_000_000 }));
  afterEach(() => mock.timers.reset());
}

describe('web/shared/rateGate', () => {
  withFakeTime();
  it('lets requests start at once until the budget is used, then waits for the oldest answer to be a second old', () => {
    const ended = (...ends: number[]) => ends.map((end) => ({ end }));
    expect(delayBeforeNext([], 5000, 2)).to.equal(0);
    expect(delayBeforeNext(ended(4500), 5000, 2)).to.equal(0);
    expect(delayBeforeNext(ended(4200, 4500), 5000, 2)).to.equal(200);
    expect(delayBeforeNext(ended(3000, 3900, 4200, 4500), 5000, 2)).to.equal(200);
    expect(delayBeforeNext(ended(3000, 3900), 5000, 2)).to.equal(0);
  });

  it('counts a request in flight however long ago it started: only its answer frees the slot, a second later', () => {
    expect(delayBeforeNext([{}], 5000, 2), 'one in flight, one free').to.equal(0);
    expect(delayBeforeNext([{}, {}], 5000, 2), 'both in flight').to.equal(Number.POSITIVE_INFINITY);
    expect(delayBeforeNext([{}, { end: 4800 }], 5000, 2), 'one answered 200 ms ago').to.equal(800);
    expect(delayBeforeNext([{}, { end: 3000 }], 5000, 2), 'answered long ago').to.equal(0);
  });

  it('spaces a burst so that no one-second window holds more than the budget', async () => {
    const gate = createRateGate(3);
    const started: number[] = [];
    const burst = Promise.all(
      Array.from({ length: 5 }, async () => {
        const release = await gate();
        started.push(Date.now());
        release();
      }),
    );
    await advance(2500);
    await burst;
    expect(started.map((t) => t - 1_000_000)).to.deep.equal([0, 0, 0, 1000, 1000]);
    for (let i = 3; i < started.length; i++) expect(started[i]! - started[i - 3]!, `start ${i}`).to.be.at.least(1000);
  });

  it('holds a request back while the budget is in flight, and starts it a second after the first answer', async () => {
    const gate = createRateGate(2);
    const first = await gate();
    await gate(); // never answered in this test
    let startedAt = 0;
    const third = gate().then(() => (startedAt = Date.now()));
    await advance(1300);
    expect(startedAt, 'both slots in flight for 1.3 s: nothing started').to.equal(0);
    const answeredAt = Date.now();
    first();
    first(); // a second release changes nothing
    await advance(990);
    expect(startedAt, 'not within the second after the answer').to.equal(0);
    await advance(10);
    await third;
    expect(startedAt - answeredAt).to.equal(1000);
  });

  it('an in-flight wait ends when the waiting request is aborted: it takes no slot', async () => {
    const gate = createRateGate(1);
    const release = await gate();
    const superseded = new AbortController();
    const waiting = gate(superseded.signal);
    setTimeout(() => superseded.abort(), 50);
    const t0 = Date.now();
    await advance(50);
    await waiting;
    expect(Date.now() - t0, 'ended by the abort, not by a slot').to.equal(50);
    release();
  });
});

describe('web/shared/rateGate with AbortSignal', () => {
  withFakeTime();
  it('gives no slot to a request aborted before its turn: the next one starts at once', async () => {
    const gate = createRateGate(2);
    (await gate())();
    const superseded = new AbortController();
    superseded.abort();
    await gate(superseded.signal);
    const t0 = Date.now();
    (await gate())();
    expect(Date.now() - t0, 'the aborted request took no slot').to.equal(0);
    let started = false;
    const third = gate().then(() => (started = true));
    await advance(990);
    expect(started, 'a third real request waits for the window').to.equal(false);
    await advance(10);
    await third;
    expect(started).to.equal(true);
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
