import { expect } from 'chai';
import { effectiveEndOfDisputePeriod, isDisputeOpen, liveRoot, type RootEntry } from '../../../domain/liveRoot.js';

const root = (
  name: string,
  blockNumber: number,
  endOfDisputePeriod: number,
  revoked = false,
  logIndex = 0,
): RootEntry => ({
  root: name,
  blockNumber,
  logIndex,
  endOfDisputePeriod,
  revoked,
});

describe('domain/liveRoot', () => {
  describe('liveRoot', () => {
    const r1 = root('r1', 10, 1000);
    const r2 = root('r2', 20, 2000);

    it('returns null without roots', () => {
      expect(liveRoot({ roots: [], now: 5000, disputeOpen: false })).to.equal(null);
    });

    it('returns the latest root once its dispute period is over', () => {
      expect(liveRoot({ roots: [r1, r2], now: 2500, disputeOpen: false })).to.equal(r2);
    });

    it('counts the end of the dispute period itself as over (block.timestamp >= endOfDisputePeriod)', () => {
      expect(liveRoot({ roots: [r1, r2], now: 2000, disputeOpen: false })).to.equal(r2);
    });

    it('returns the previous root while the latest is in its dispute period', () => {
      expect(liveRoot({ roots: [r1, r2], now: 1999, disputeOpen: false })).to.equal(r1);
    });

    it('returns the previous root whatever its own end (it is lastTree)', () => {
      expect(liveRoot({ roots: [r1, r2], now: 500, disputeOpen: false })).to.equal(r1);
    });

    it('returns null while the first root is in its dispute period', () => {
      expect(liveRoot({ roots: [r1], now: 999, disputeOpen: false })).to.equal(null);
    });

    it('returns the previous root while a dispute is open, even past the end', () => {
      expect(liveRoot({ roots: [r1, r2], now: 9999, disputeOpen: true })).to.equal(r1);
    });

    it('does not depend on input order, and orders by log index within a block', () => {
      const a = root('a', 30, 100, false, 1);
      const b = root('b', 30, 100, false, 2);
      expect(liveRoot({ roots: [b, r2, a, r1], now: 5000, disputeOpen: false })).to.equal(b);
    });

    it('skips revoked roots: after revokeTree the re-emitted previous root is live at once', () => {
      // updateTree(r2) then revokeTree(): Revoked marks r2, then TreeUpdated(r1) with an end in the past.
      const r2Revoked = root('r2', 20, 2000, true);
      const r1Again = root('r1', 21, 1800);
      expect(liveRoot({ roots: [r1, r2Revoked, r1Again], now: 1900, disputeOpen: false })).to.equal(r1Again);
    });

    it('after a rejected dispute (DisputeResolved(false), no TreeUpdated) keeps the previous root until the recomputed end', () => {
      // updateTree(r2) with end 2000, Disputed, DisputeResolved(false) at block 25 restarting the period to 5600.
      const rejectedDisputes = [{ blockNumber: 25, logIndex: 0, endOfDisputePeriod: 5600 }];
      expect(liveRoot({ roots: [r1, r2], now: 2500, disputeOpen: false, rejectedDisputes })).to.equal(r1);
      expect(liveRoot({ roots: [r1, r2], now: 5599, disputeOpen: false, rejectedDisputes })).to.equal(r1);
      expect(liveRoot({ roots: [r1, r2], now: 5600, disputeOpen: false, rejectedDisputes })).to.equal(r2);
    });

    it('ignores a rejected dispute logged before the latest root (it was about an older tree)', () => {
      expect(effectiveEndOfDisputePeriod(r2, [{ blockNumber: 15, logIndex: 0, endOfDisputePeriod: 9000 }])).to.equal(
        2000,
      );
      expect(
        effectiveEndOfDisputePeriod(r2, [
          { blockNumber: 21, logIndex: 0, endOfDisputePeriod: 3000 },
          { blockNumber: 22, logIndex: 0, endOfDisputePeriod: 4000 },
        ]),
      ).to.equal(4000);
      expect(
        liveRoot({
          roots: [r1, r2],
          now: 2500,
          disputeOpen: false,
          rejectedDisputes: [{ blockNumber: 15, logIndex: 0, endOfDisputePeriod: 9000 }],
        }),
      ).to.equal(r2);
    });

    it('falls back past a revoked root to the previous non-revoked one', () => {
      const r3 = root('r3', 30, 3000);
      expect(liveRoot({ roots: [r1, root('r2', 20, 2000, true), r3], now: 2500, disputeOpen: false })).to.equal(r1);
    });
  });

  describe('isDisputeOpen', () => {
    it('is false without dispute events', () => {
      expect(isDisputeOpen([])).to.equal(false);
      expect(isDisputeOpen([{ kind: 'revoked', blockNumber: 5, logIndex: 0 }])).to.equal(false);
    });

    it('is true after a Disputed log with no DisputeResolved after it', () => {
      expect(
        isDisputeOpen([
          { kind: 'dispute_resolved', blockNumber: 5, logIndex: 0 },
          { kind: 'disputed', blockNumber: 9, logIndex: 0 },
        ]),
      ).to.equal(true);
    });

    it('is false once the dispute is resolved, whatever the input order', () => {
      expect(
        isDisputeOpen([
          { kind: 'dispute_resolved', blockNumber: 9, logIndex: 1 },
          { kind: 'disputed', blockNumber: 9, logIndex: 0 },
          { kind: 'revoked', blockNumber: 9, logIndex: 2 },
        ]),
      ).to.equal(false);
    });
  });
});
