import { expect } from 'chai';
import { ChainReadAbandonedError, ChainReadBusyError, createChainReadGate } from '../../../../api/chain/readGate.js';

describe('api/chain/readGate: createChainReadGate', function () {
  it('runs `concurrency` reads, queues `queue` more first come first served, refuses the next at once', async function () {
    const gate = createChainReadGate({ concurrency: 2, queue: 1 });
    const [a, b] = await Promise.all([gate.acquire(), gate.acquire()]);
    const order: string[] = [];
    const c = gate.acquire().then((release) => (order.push('c'), release));
    expect(gate.running()).to.equal(2);
    expect(gate.waiting()).to.equal(1);
    const refused = await gate.acquire().catch((e: unknown) => e);
    expect(refused).to.be.instanceOf(ChainReadBusyError);
    a!();
    a!(); // a second release of the same turn frees nothing more
    const releaseC = await c;
    expect(order).to.deep.equal(['c']);
    expect([gate.running(), gate.waiting()]).to.deep.equal([2, 0]);
    b!();
    releaseC();
    expect(gate.running()).to.equal(0);
  });

  it('drops a waiter whose deadline passes, and refuses one whose deadline passed already', async function () {
    const gate = createChainReadGate({ concurrency: 1, queue: 4 });
    const release = await gate.acquire();
    const controller = new AbortController();
    const waiting = gate.acquire(controller.signal).catch((e: unknown) => e);
    expect(gate.waiting()).to.equal(1);
    controller.abort();
    expect(await waiting).to.be.instanceOf(ChainReadAbandonedError);
    expect(gate.waiting()).to.equal(0);
    expect(await gate.acquire(controller.signal).catch((e: unknown) => e)).to.be.instanceOf(ChainReadAbandonedError);
    release();
    expect(gate.running()).to.equal(0);
  });
});
