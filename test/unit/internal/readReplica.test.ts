import { expect } from 'chai';
import { chooseReadTarget, isConnectionFailure, type ReplicaSample } from '../../../internal/readReplica.js';

const NOW = 1_000_000;
const healthy = (over: Partial<Extract<ReplicaSample, { ok: true }>> = {}): ReplicaSample => ({
  at: NOW,
  ok: true,
  lagMs: 0,
  receiving: true,
  inRecovery: true,
  ...over,
});
const choose = (sample: ReplicaSample | undefined, extra: { failedAt?: number; nowMs?: number } = {}) =>
  chooseReadTarget({ sample, nowMs: NOW, maxLagMs: 1000, ...extra });

describe('internal/readReplica', () => {
  describe('chooseReadTarget', () => {
    it('sends reads to a checked, receiving replica within the bound', () => {
      expect(choose(healthy())).to.deep.equal({ target: 'replica', reason: 'healthy' });
      expect(choose(healthy({ lagMs: 600 }), { nowMs: NOW + 400 })).to.deep.equal({
        target: 'replica',
        reason: 'healthy',
      });
    });

    it('falls back to the primary before the first check and when the check failed', () => {
      expect(choose(undefined)).to.deep.equal({ target: 'primary', reason: 'unchecked' });
      expect(choose({ at: NOW, ok: false, error: 'connect ECONNREFUSED' })).to.deep.equal({
        target: 'primary',
        reason: 'down',
      });
    });

    it('falls back above the lag bound', () => {
      expect(choose(healthy({ lagMs: 1001 }))).to.deep.equal({ target: 'primary', reason: 'lagging' });
    });

    it("counts the check's age as lag: a stalled check cannot keep a stale replica in use", () => {
      expect(choose(healthy({ lagMs: 0 }), { nowMs: NOW + 1001 })).to.deep.equal({
        target: 'primary',
        reason: 'check-overdue',
      });
      expect(choose(healthy({ lagMs: 500 }), { nowMs: NOW + 501 })).to.deep.equal({
        target: 'primary',
        reason: 'check-overdue',
      });
    });

    it('falls back while a standby has no WAL receiver (disconnected from its primary, it looks lag-free)', () => {
      expect(choose(healthy({ receiving: false }))).to.deep.equal({ target: 'primary', reason: 'not-receiving' });
      // Not in recovery (a promoted server): no receiver is expected, nothing lags.
      expect(choose(healthy({ receiving: false, inRecovery: false }))).to.deep.equal({
        target: 'replica',
        reason: 'healthy',
      });
    });

    it('avoids the replica after a connection failure until a later check answers', () => {
      expect(choose(healthy(), { failedAt: NOW })).to.deep.equal({ target: 'primary', reason: 'query-failed' });
      expect(choose(healthy({ at: NOW }), { failedAt: NOW - 1 })).to.deep.equal({
        target: 'replica',
        reason: 'healthy',
      });
    });
  });

  describe('isConnectionFailure', () => {
    it('tells a gone server or connection from a failing statement', () => {
      expect(
        isConnectionFailure(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' })),
      ).to.equal(true);
      expect(isConnectionFailure(new Error('Connection terminated unexpectedly'))).to.equal(true);
      expect(isConnectionFailure(Object.assign(new Error('terminating connection'), { code: '57P01' }))).to.equal(true);
      expect(
        isConnectionFailure(Object.assign(new Error('the database system is starting up'), { code: '57P03' })),
      ).to.equal(true);
      expect(isConnectionFailure(Object.assign(new Error('connection failure'), { code: '08006' }))).to.equal(true);
      expect(isConnectionFailure(Object.assign(new Error('conflict with recovery'), { code: '40001' }))).to.equal(
        false,
      );
      expect(isConnectionFailure(Object.assign(new Error('syntax error'), { code: '42601' }))).to.equal(false);
    });
  });
});
