import type { Hex } from 'viem';
import type { LogPosition } from '../../domain/logPosition.js';
import type { RootLifecycleEvent } from '../decode/distributorEvents.js';
import { BaseError } from '../../internal/errors.js';

type Positioned = {
  chainId: number;
  blockNumber: number;
  blockHash: string;
  txHash: string;
  logIndex: number;
  timestamp: number;
};

/** A `roots` row: one TreeUpdated log. */
export type RootRow = Positioned & { root: Hex; ipfsHash: Hex; endOfDisputePeriod: number };

/**
 * A `distributor_events` row: one Revoked, Disputed or DisputeResolved log. `endOfDisputePeriod`:
 * for DisputeResolved(false) only, the contract's end recomputed from the resolution (null otherwise).
 * `disputer`: for Disputed only, the Distributor's `disputer()` after its block (null otherwise).
 */
export type DistributorEventRow = Positioned & {
  kind: 'revoked' | 'disputed' | 'dispute_resolved';
  reason: string | null;
  valid: boolean | null;
  endOfDisputePeriod: number | null;
  disputer: string | null;
};

export class MissingBlockTimestampError extends BaseError {
  override readonly retryable = true;
  override name = 'MissingBlockTimestampError';
}

export class MissingDisputeEndError extends BaseError {
  override name = 'MissingDisputeEndError';
}

/** Pure: the position fields of a row, with the block time from `timestamps` (the stored headers). */
export function positionedRow(e: LogPosition, timestamps: ReadonlyMap<number, number>): Positioned {
  const timestamp = timestamps.get(e.blockNumber);
  if (timestamp === undefined)
    throw new MissingBlockTimestampError(`chain ${e.chainId}: no stored header for block ${e.blockNumber}`);
  return {
    chainId: e.chainId,
    blockNumber: e.blockNumber,
    blockHash: e.blockHash,
    txHash: e.txHash,
    logIndex: e.logIndex,
    timestamp,
  };
}

/**
 * Pure: root-lifecycle events → `roots` rows (TreeUpdated) and `distributor_events` rows (the rest).
 * @param timestamps block number → block time, for every block holding an event.
 * @param rejectedEnds block number → `endOfDisputePeriod()` read at that block, for every block
 *   holding a DisputeResolved(false) (the contract emits no TreeUpdated then, docs/contracts.md#dispute-period-and-the-live-root).
 * @param disputers block number → `disputer()` read at that block, for every block holding a Disputed.
 */
export function toRootRows(
  events: readonly RootLifecycleEvent[],
  timestamps: ReadonlyMap<number, number>,
  rejectedEnds: ReadonlyMap<number, number> = new Map(),
  disputers: ReadonlyMap<number, string | null> = new Map(),
): { roots: RootRow[]; events: DistributorEventRow[] } {
  const roots: RootRow[] = [];
  const others: DistributorEventRow[] = [];
  for (const e of events) {
    const position = positionedRow(e, timestamps);
    if (e.kind === 'tree_updated')
      roots.push({ ...position, root: e.root, ipfsHash: e.ipfsHash, endOfDisputePeriod: e.endOfDisputePeriod });
    else {
      const rejected = e.kind === 'dispute_resolved' && !e.valid;
      const end = rejected ? rejectedEnds.get(e.blockNumber) : undefined;
      if (rejected && end === undefined)
        throw new MissingDisputeEndError(
          `chain ${e.chainId}: no endOfDisputePeriod read for DisputeResolved(false) at block ${e.blockNumber}`,
        );
      others.push({
        ...position,
        kind: e.kind,
        reason: e.kind === 'disputed' ? e.reason : null,
        valid: e.kind === 'dispute_resolved' ? e.valid : null,
        endOfDisputePeriod: end ?? null,
        disputer: e.kind === 'disputed' ? (disputers.get(e.blockNumber) ?? null) : null,
      });
    }
  }
  return { roots, events: others };
}
