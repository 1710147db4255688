import { expect } from 'chai';
import type { BlockRow } from '../../../indexer/store/blocks.js';
import { assertContiguous, ReorgDetectedError } from '../../../jobs/syncBlocks.js';

const hash = (n: number, fork = 'a'): string => `0x${fork.repeat(2)}${n.toString(16).padStart(62, '0')}`;

/** Headers n..m of one chain, each the parent of the next. */
function headers(from: number, to: number, fork = 'a'): BlockRow[] {
  return Array.from({ length: to - from + 1 }, (_, i) => {
    const number = from + i;
    return {
      chainId: 31337,
      number,
      hash: hash(number, fork),
      parentHash: hash(number - 1, fork),
      timestamp: 1_700_000_000 + number,
    };
  });
}

describe('jobs/syncBlocks', () => {
  describe('assertContiguous', () => {
    it('accepts a batch that extends the stored block', () => {
      expect(() => assertContiguous(31337, hash(9), headers(10, 14))).not.to.throw();
    });

    it('accepts the first batch of a chain (no stored parent)', () => {
      expect(() => assertContiguous(31337, null, headers(0, 3))).not.to.throw();
    });

    it('accepts an empty batch', () => {
      expect(() => assertContiguous(31337, hash(9), [])).not.to.throw();
    });

    it('throws ReorgDetectedError when the first block does not extend the stored hash', () => {
      expect(() => assertContiguous(31337, hash(9, 'b'), headers(10, 12)))
        .to.throw(ReorgDetectedError, /chain 31337: block 10 has parent/)
        .with.property('message')
        .that.includes(hash(9, 'b'));
    });

    it('throws ReorgDetectedError when the batch itself is not contiguous', () => {
      const rows = headers(10, 14);
      rows[3] = { ...rows[3]!, parentHash: hash(12, 'b') };
      expect(() => assertContiguous(31337, hash(9), rows)).to.throw(ReorgDetectedError, /block 13 has parent/);
    });

    it('checks the batch even without a stored parent', () => {
      const rows = [...headers(0, 1), ...headers(2, 3, 'b')];
      expect(() => assertContiguous(1, null, rows)).to.throw(ReorgDetectedError, /chain 1: block 2/);
    });
  });
});
