import { expect } from 'chai';
import { ownerShare } from '../../../../jobs/deliverWebhooks.js';
import { createWakeup } from '../../../../jobs/webhooks/wakeup.js';

describe('jobs/webhooks/wakeup: idle delivery workers wait without losing a signal', () => {
  const never = new AbortController().signal;

  it('returns at once when a signal came after the generation the worker read', async () => {
    const w = createWakeup();
    const seen = w.generation;
    w.signal();
    const t0 = Date.now();
    await w.after(seen, 10_000, never);
    expect(Date.now() - t0).to.be.below(1_000);
  });

  it('wakes every waiter on a signal, and each waits at most its time otherwise', async () => {
    const w = createWakeup();
    const seen = w.generation;
    let woken = 0;
    const waits = [w.after(seen, 10_000, never), w.after(seen, 10_000, never)].map((p) => p.then(() => (woken += 1)));
    await Promise.resolve();
    expect(woken).to.equal(0);
    w.signal();
    await Promise.all(waits);
    expect(woken).to.equal(2);
    const t0 = Date.now();
    await w.after(w.generation, 20, never);
    expect(Date.now() - t0).to.be.within(15, 1_000);
  });

  it('an abort ends the wait', async () => {
    const w = createWakeup();
    const abort = new AbortController();
    const wait = w.after(w.generation, 10_000, abort.signal);
    abort.abort();
    await wait;
    await w.after(w.generation, 10_000, abort.signal);
  });
});

describe('jobs/deliverWebhooks ownerShare: one owner never holds every worker', () => {
  it('is half the workers, at least one', () => {
    expect([1, 2, 3, 4, 5, 8].map(ownerShare)).to.deep.equal([1, 1, 1, 2, 2, 4]);
  });
});
