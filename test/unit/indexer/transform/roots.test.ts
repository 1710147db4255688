import { expect } from 'chai';
import type { ClaimedEvent, RootLifecycleEvent } from '../../../../indexer/decode/distributorEvents.js';
import { toClaimRows } from '../../../../indexer/transform/claims.js';
import { MissingBlockTimestampError, MissingDisputeEndError, toRootRows } from '../../../../indexer/transform/roots.js';

const position = (blockNumber: number, logIndex: number) => ({
  chainId: 31337,
  blockNumber,
  blockHash: `0x${'b'.repeat(64)}` as const,
  txHash: `0x${'c'.repeat(64)}` as const,
  logIndex,
});
const timestamps = new Map([
  [10, 1_700_000_000],
  [11, 1_700_000_012],
]);

describe('indexer/transform/roots', () => {
  it('splits TreeUpdated into roots rows and the other lifecycle logs into distributor event rows, with block times', () => {
    const events: RootLifecycleEvent[] = [
      {
        ...position(10, 0),
        kind: 'tree_updated',
        root: `0x${'1'.repeat(64)}`,
        ipfsHash: `0x${'0'.repeat(64)}`,
        endOfDisputePeriod: 1_700_003_600,
      },
      { ...position(11, 0), kind: 'revoked' },
      { ...position(11, 1), kind: 'disputed', reason: 'bad' },
      { ...position(11, 2), kind: 'dispute_resolved', valid: false },
    ];
    const D = '0x00000000000000000000000000000000000000d1';
    const rows = toRootRows(events, timestamps, new Map([[11, 1_700_010_800]]), new Map([[11, D]]));
    expect(rows.roots).to.deep.equal([
      {
        ...position(10, 0),
        timestamp: 1_700_000_000,
        root: `0x${'1'.repeat(64)}`,
        ipfsHash: `0x${'0'.repeat(64)}`,
        endOfDisputePeriod: 1_700_003_600,
      },
    ]);
    expect(rows.events).to.deep.equal([
      {
        ...position(11, 0),
        timestamp: 1_700_000_012,
        kind: 'revoked',
        reason: null,
        valid: null,
        endOfDisputePeriod: null,
        disputer: null,
      },
      {
        ...position(11, 1),
        timestamp: 1_700_000_012,
        kind: 'disputed',
        reason: 'bad',
        valid: null,
        endOfDisputePeriod: null,
        disputer: D,
      },
      {
        ...position(11, 2),
        timestamp: 1_700_000_012,
        kind: 'dispute_resolved',
        reason: null,
        valid: false,
        endOfDisputePeriod: 1_700_010_800,
        disputer: null,
      },
    ]);
  });

  it('keeps no end for DisputeResolved(true), and refuses a DisputeResolved(false) whose recomputed end was not read (MissingDisputeEndError)', () => {
    const resolved = (valid: boolean): RootLifecycleEvent => ({ ...position(11, 0), kind: 'dispute_resolved', valid });
    expect(toRootRows([resolved(true)], timestamps).events[0]).to.include({ valid: true, endOfDisputePeriod: null });
    expect(() => toRootRows([resolved(false)], timestamps)).to.throw(MissingDisputeEndError, /block 11/);
  });

  it('throws MissingBlockTimestampError for a block without a stored header', () => {
    expect(() => toRootRows([{ ...position(12, 0), kind: 'revoked' }], timestamps)).to.throw(
      MissingBlockTimestampError,
      /block 12/,
    );
  });

  describe('toClaimRows', () => {
    it('keeps the delta as a decimal string with the block time', () => {
      const events: ClaimedEvent[] = [
        { ...position(11, 4), recipient: `0x${'a'.repeat(40)}`, token: `0x${'2'.repeat(40)}`, amount: 2n ** 255n },
      ];
      expect(toClaimRows(events, timestamps)).to.deep.equal([
        {
          ...position(11, 4),
          timestamp: 1_700_000_012,
          recipient: `0x${'a'.repeat(40)}`,
          token: `0x${'2'.repeat(40)}`,
          amount: (2n ** 255n).toString(),
        },
      ]);
    });
  });
});
