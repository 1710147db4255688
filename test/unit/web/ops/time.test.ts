import { expect } from 'chai';
import { freshnessText, scheduleSourceText, upcoming } from '../../../../web/ops/time.js';

describe('web/ops/time', () => {
  it('shows sub-second freshness in ms, never "0s / 0s" (#44)', () => {
    expect(freshnessText({ samples: 132, p50Seconds: 0.132, p95Seconds: 0.4187 })).to.equal(
      '132 ms / 419 ms (132 samples)',
    );
    expect(freshnessText({ samples: 1, p50Seconds: 2.5, p95Seconds: 75 })).to.equal('2.5 s / 1m15s (1 sample)');
    expect(freshnessText({ samples: 0, p50Seconds: null, p95Seconds: null })).to.equal(
      'no campaign published in the window',
    );
    expect(freshnessText(null)).to.equal('–');
    expect(freshnessText({ samples: 4, p50Seconds: 0.2, p95Seconds: 0.3, clockAheadSamples: 4 })).to.equal(
      '200 ms / 300 ms (4 samples; all timed from indexing: block time ahead of the clock)',
    );
    expect(freshnessText({ samples: 4, p50Seconds: 0.2, p95Seconds: 0.3, clockAheadSamples: 1 })).to.equal(
      '200 ms / 300 ms (4 samples; 1 timed from indexing: block time ahead of the clock)',
    );
  });

  it('says where a schedule comes from in words, not as the table it is stored in (#44)', () => {
    expect(scheduleSourceText('job_state', 'prices')).to.equal('set by an operator');
    expect(scheduleSourceText('env', 'benchmark-rate')).to.equal('from JOB_BENCHMARK_RATE_CRON');
    expect(scheduleSourceText('default', 'prices')).to.equal("the job's default");
  });

  it('says a next run whose time has passed is due, never "ago"', () => {
    const now = Date.parse('2026-11-30T09:00:00Z');
    expect(upcoming('2026-11-30T09:00:04Z', now)).to.equal('in 4 s');
    expect(upcoming('2026-11-30T09:00:00Z', now)).to.equal('in 0 s');
    expect(upcoming('2026-11-30T08:59:58Z', now)).to.equal('due now');
  });
});
