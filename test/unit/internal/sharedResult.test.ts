import { expect } from 'chai';
import { sharedResult } from '../../../internal/sharedResult.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('internal/sharedResult', function () {
  it('runs one computation for concurrent callers and serves it until it is ttl old', async function () {
    let runs = 0;
    const shared = sharedResult(async () => {
      runs += 1;
      await sleep(20);
      return runs;
    }, 100);
    expect(await Promise.all([shared(), shared(), shared()])).to.deep.equal([1, 1, 1]);
    expect(await shared()).to.equal(1);
    await sleep(120);
    expect(await shared()).to.equal(2);
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
