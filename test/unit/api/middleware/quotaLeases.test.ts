import { expect } from 'chai';
import { QuotaLeases, type ClaimQuota } from '../../../../api/middleware/quotaLeases.js';

/** Window counters as the shared table keeps them, answering after a tick; records every claim. */
function sharedCounters() {
  const counts = new Map<string, number>();
  const claims: { bucket: string; window: number; n: number }[] = [];
  const claim: ClaimQuota = async (bucket, window, n) => {
    await new Promise((r) => setImmediate(r));
    claims.push({ bucket, window, n });
    const key = `${bucket}@${window}`;
    counts.set(key, (counts.get(key) ?? 0) + n);
    return counts.get(key)!;
  };
  return { claim, claims };
}

describe('api/middleware/quotaLeases', () => {
  it('counts a small limit hit by hit, and refuses past it without asking again', async () => {
    const { claim, claims } = sharedCounters();
    const leases = new QuotaLeases(claim);
    const decisions = [];
    for (let i = 0; i < 13; i++) decisions.push(await leases.take('ip:a', 100, 10));
    expect(decisions.map((d) => d.allowed)).to.deep.equal([...Array(10).fill(true), false, false, false]);
    expect(decisions.slice(0, 10).map((d) => d.remaining)).to.deep.equal([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    expect(claims.map((c) => c.n)).to.deep.equal(Array(11).fill(1));
  });

  it('claims ⌊limit/20⌋ at a time, or for the whole burst waiting on one claim, and several processes together never pass the limit', async () => {
    const { claim, claims } = sharedCounters();
    const processes = [new QuotaLeases(claim), new QuotaLeases(claim), new QuotaLeases(claim)];
    const burst = await Promise.all(Array.from({ length: 1500 }, (_, i) => processes[i % 3]!.take('key:7', 200, 1000)));
    expect(burst.filter((d) => d.allowed)).to.have.length.within(1000 - 3, 1000);
    expect(claims.length, 'one claim per process for a burst, not one per request').to.be.at.most(6);
    // Requests arriving one macrotask apart, several in flight: chunks of 50, and every lease spent by the end.
    const { claim: claim2, claims: claims2 } = sharedCounters();
    const pair = [new QuotaLeases(claim2), new QuotaLeases(claim2)];
    const spread = await Promise.all(
      Array.from({ length: 1200 }, async (_, i) => {
        for (let k = 0; k < i % 7; k++) await new Promise((r) => setImmediate(r));
        return pair[i % 2]!.take('key:8', 200, 1000);
      }),
    );
    expect(spread.filter((d) => d.allowed).length).to.be.within(1000 - 2 * 49, 1000);
    expect(claims2.length, 'about one claim per 50 grants').to.be.below(1000 / 50 + 10);
    // Sequential callers spend every lease: exactly the limit passes.
    const { claim: claim3 } = sharedCounters();
    const seq = [new QuotaLeases(claim3), new QuotaLeases(claim3)];
    let passed = 0;
    for (let i = 0; i < 1200; i++) if ((await seq[i % 2]!.take('key:9', 200, 1000)).allowed) passed += 1;
    expect(passed).to.equal(1000);
  });

  it('starts afresh in the next window, and keeps buckets apart', async () => {
    const { claim } = sharedCounters();
    const leases = new QuotaLeases(claim);
    expect((await leases.take('ip:a', 300, 1)).allowed).to.equal(true);
    expect((await leases.take('ip:a', 300, 1)).allowed).to.equal(false);
    expect((await leases.take('ip:b', 300, 1)).allowed).to.equal(true);
    expect(await leases.take('ip:a', 301, 1)).to.deep.equal({ allowed: true, remaining: 0 });
  });

  it('passes a failed claim on to the caller (the middleware lets the request through and logs it)', async () => {
    const leases = new QuotaLeases(async () => {
      throw new Error('connection refused');
    });
    await leases.take('ip:a', 1, 10).then(
      () => expect.fail('resolved'),
      (error: Error) => expect(error.message).to.equal('connection refused'),
    );
  });
});
