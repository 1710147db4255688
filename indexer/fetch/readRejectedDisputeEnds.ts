/**
 * DisputeResolved(false) recomputes the Distributor's `endOfDisputePeriod` from the resolution time and
 * emits no TreeUpdated (docs/contracts.md#dispute-period-and-the-live-root): the new end is read from the contract's storage at the block
 * of the log (the state after that block; a later TreeUpdated in the same block has its own row).
 */
import type { Address, PublicClient } from 'viem';
import { distributorReadAbi } from '../../domain/abis/distributor.js';
import type { RootLifecycleEvent } from '../decode/distributorEvents.js';

/** @returns block number → `endOfDisputePeriod()` at that block, for each block holding a DisputeResolved(false). */
export async function readRejectedDisputeEnds(
  client: PublicClient,
  distributor: Address,
  events: readonly RootLifecycleEvent[],
): Promise<Map<number, number>> {
  const blocks = [
    ...new Set(events.filter((e) => e.kind === 'dispute_resolved' && !e.valid).map((e) => e.blockNumber)),
  ];
  const ends = new Map<number, number>();
  for (const blockNumber of blocks) {
    const end = await client.readContract({
      address: distributor,
      abi: distributorReadAbi,
      functionName: 'endOfDisputePeriod',
      blockNumber: BigInt(blockNumber),
    });
    ends.set(blockNumber, Number(end));
  }
  return ends;
}
