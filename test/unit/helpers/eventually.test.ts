import { expect } from 'chai';
import { eventually } from '../../helpers/eventually.js';

describe('test helper eventually: waits on a condition, never a fixed sleep (issue 47)', function () {
  it('returns the first value that is not false, as soon as the condition holds', async function () {
    let calls = 0;
    const t0 = Date.now();
    const value = await eventually(() => (++calls >= 3 ? { calls } : false), { intervalMs: 5 });
    expect(value).to.deep.equal({ calls: 3 });
    expect(Date.now() - t0).to.be.below(1_000);
  });

  it('retries assertions until they pass', async function () {
    let n = 0;
    await eventually(
      () => {
        n++;
        expect(n).to.equal(4);
      },
      { intervalMs: 1 },
    );
    expect(n).to.equal(4);
  });

  it('fails after timeoutMs naming what it waited for and the last failure', async function () {
    const failure = await eventually(() => expect(1).to.equal(2), {
      timeoutMs: 60,
      intervalMs: 10,
      what: 'one to be two',
    }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(failure?.message).to.match(/timed out after 60 ms waiting for one to be two: expected 1 to equal 2/);
    const falsy = await eventually(async () => false, { timeoutMs: 30, intervalMs: 5, what: 'never' }).catch(
      (e: Error) => e,
    );
    expect((falsy as Error).message).to.match(/waiting for never: still false/);
  });
});
