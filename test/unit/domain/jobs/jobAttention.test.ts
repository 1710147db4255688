import { expect } from 'chai';
import { type JobAttentionParams, jobAttention } from '../../../../domain/jobs/jobAttention.js';

const now = new Date('2026-11-29T12:00:00Z');
const base: JobAttentionParams = {
  paused: false,
  lastRun: { status: 'success', error: null },
  lastSuccessAt: new Date(now.getTime() - 30_000),
  chains: [],
  blockCursor: false,
  intervalMs: 60_000,
  now,
};

describe('domain/jobs/jobAttention', () => {
  it('is ok after a recent success, never-run without runs', () => {
    expect(jobAttention(base)).to.deep.equal({ status: 'ok', reasons: [] });
    expect(jobAttention({ ...base, lastRun: null, lastSuccessAt: null }).status).to.equal('never-run');
  });

  it('says a job whose runs are skipped (nothing configured) is not configured, never ok (#44)', () => {
    const skipped = jobAttention({
      ...base,
      lastRun: { status: 'skipped', error: null, skipReason: 'BENCHMARK_RATE_URL is not set' },
      lastSuccessAt: null,
    });
    expect(skipped).to.deep.equal({
      status: 'not-configured',
      reasons: ['its runs do nothing: BENCHMARK_RATE_URL is not set'],
    });
    // Paused outranks it; a later success makes it ok again.
    expect(jobAttention({ ...base, paused: true, lastRun: { status: 'skipped', error: null } }).status).to.equal(
      'paused',
    );
  });

  it('puts failing before lagging and both before paused', () => {
    const failing = jobAttention({ ...base, paused: true, lastRun: { status: 'failed', error: 'boom' } });
    expect(failing).to.deep.equal({ status: 'failing', reasons: ['last run failed: boom'] });
    const overdue = jobAttention({ ...base, paused: false, lastSuccessAt: new Date(now.getTime() - 600_000) });
    expect(overdue.status).to.equal('lagging');
  });
});
