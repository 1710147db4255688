import { expect } from 'chai';
import { formatRun } from '../../../../jobs/commands/formatRun.js';

describe('jobs/commands/formatRun', () => {
  it('prints status, duration, run id, counts and ranges of a run', () => {
    expect(
      formatRun('publish', {
        status: 'success',
        runId: 12,
        durationMs: 41,
        result: { counts: { published: 3, deleted: 0 }, ranges: [] },
      }),
    ).to.equal('publish: success in 41 ms (run 12) · counts: published 3, deleted 0 · ranges: none');
    expect(
      formatRun('campaigns', {
        status: 'success',
        runId: 3,
        durationMs: 2410,
        result: { counts: {}, ranges: [{ chainId: 31337, from: 100, to: 164 }] },
      }),
    ).to.equal('campaigns: success in 2.41 s (run 3) · counts: none · ranges: 31337 100–164');
  });

  it('says why a run was skipped', () => {
    expect(formatRun('prices', { status: 'skipped', reason: 'paused' })).to.equal(
      'prices: skipped (paused; --force runs it anyway)',
    );
    expect(formatRun('prices', { status: 'skipped', reason: 'locked' })).to.equal(
      'prices: skipped (another process is running it)',
    );
    expect(
      formatRun('prices', {
        status: 'skipped',
        reason: 'not-configured',
        detail: 'no price source configured: PRICE_API_URL is not set and no chain of CHAINS has priceFeeds',
        runId: 7,
        durationMs: 2,
      }),
    ).to.equal(
      'prices: skipped in 2 ms (run 7): no price source configured: PRICE_API_URL is not set and no chain of CHAINS has priceFeeds',
    );
  });
});
