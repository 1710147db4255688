import { expect } from 'chai';
import { sharedResult } from '../../../internal/sharedResult.js';

/** A computation the test finishes when it chooses. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('internal/sharedResult', function () {
  it('runs one computation for concurrent callers and serves it until it is ttl old', async function () {
    let runs = 0;
    let clock = 1_000_000;
    let pending = deferred<void>();
    const shared = sharedResult(
      async () => {
        runs += 1;
        await pending.promise;
        return runs;
      },
      100,
      () => clock,
    );
    const concurrent = [shared(), shared(), shared()];
    clock += 500; // still running: its age counts from when it resolves
    expect(runs, 'one computation in flight').to.equal(1);
    pending.resolve();
    expect(await Promise.all(concurrent)).to.deep.equal([1, 1, 1]);
    clock += 99;
    expect(await shared()).to.equal(1);
    clock += 1;
    pending = deferred<void>();
    const next = shared();
    pending.resolve();
    expect(await next).to.equal(2);
    expect(runs).to.equal(2);
  });

  it('keeps no rejection: the next caller computes again', async function () {
    let runs = 0;
    const shared = sharedResult(async () => {
      runs += 1;
      if (runs === 1) throw new Error('down');
      return 'up';
    }, 1000);
    const failed = await Promise.all([shared(), shared()].map((p) => p.catch((e: Error) => e.message)));
    expect(failed).to.deep.equal(['down', 'down']);
    expect(await shared()).to.equal('up');
    expect(runs).to.equal(2);
  });
});
