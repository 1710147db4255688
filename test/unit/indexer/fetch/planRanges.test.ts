import { expect } from 'chai';
import { planRanges } from '../../../../indexer/fetch/planRanges.js';

describe('indexer/fetch/planRanges', () => {
  describe('planRanges', () => {
    it('starts at startBlock when the cursor is null', () => {
      expect(planRanges({ cursor: null, startBlock: 10, head: 14, confirmations: 0, maxRange: 100 })).to.deep.equal([
        { from: 10, to: 14 },
      ]);
    });

    it('resumes at cursor + 1 when the cursor is set', () => {
      expect(planRanges({ cursor: 20, startBlock: 10, head: 25, confirmations: 0, maxRange: 100 })).to.deep.equal([
        { from: 21, to: 25 },
      ]);
    });

    it('never starts before startBlock, even with an older cursor', () => {
      expect(planRanges({ cursor: 3, startBlock: 10, head: 12, confirmations: 0, maxRange: 100 })).to.deep.equal([
        { from: 10, to: 12 },
      ]);
    });

    it('stops at head − confirmations', () => {
      expect(planRanges({ cursor: null, startBlock: 0, head: 100, confirmations: 12, maxRange: 1000 })).to.deep.equal([
        { from: 0, to: 88 },
      ]);
    });

    it('chunks into inclusive ranges of at most maxRange blocks, the last one short', () => {
      expect(planRanges({ cursor: null, startBlock: 0, head: 24, confirmations: 0, maxRange: 10 })).to.deep.equal([
        { from: 0, to: 9 },
        { from: 10, to: 19 },
        { from: 20, to: 24 },
      ]);
    });

    it('plans a single block when maxRange is 1', () => {
      expect(planRanges({ cursor: 4, startBlock: 0, head: 6, confirmations: 0, maxRange: 1 })).to.deep.equal([
        { from: 5, to: 5 },
        { from: 6, to: 6 },
      ]);
    });

    it('plans at most maxRanges ranges', () => {
      expect(
        planRanges({ cursor: null, startBlock: 0, head: 1000, confirmations: 0, maxRange: 10, maxRanges: 2 }),
      ).to.deep.equal([
        { from: 0, to: 9 },
        { from: 10, to: 19 },
      ]);
    });

    it('returns [] when caught up (cursor at the safe head)', () => {
      expect(planRanges({ cursor: 88, startBlock: 0, head: 100, confirmations: 12, maxRange: 10 })).to.deep.equal([]);
    });

    it('returns [] when the chain is shorter than the confirmation depth or startBlock', () => {
      expect(planRanges({ cursor: null, startBlock: 0, head: 5, confirmations: 10, maxRange: 10 })).to.deep.equal([]);
      expect(planRanges({ cursor: null, startBlock: 50, head: 40, confirmations: 0, maxRange: 10 })).to.deep.equal([]);
    });
  });
});
