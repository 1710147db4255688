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

/**
 * Who opened each dispute: the Distributor's `disputer()` at the block of each Disputed log (the
 * log names only the reason; the disputer is `msg.sender`, which a multisig's transaction sender is
 * not). Zero after that block (the dispute resolved in the same block) reads as null.
 * @returns block number → disputer (lower case) or null, for each block holding a Disputed log.
 */
export async function readDisputers(
  client: PublicClient,
  distributor: Address,
  events: readonly RootLifecycleEvent[],
): Promise<Map<number, string | null>> {
  const blocks = [...new Set(events.filter((e) => e.kind === 'disputed').map((e) => e.blockNumber))];
  const disputers = new Map<number, string | null>();
  for (const blockNumber of blocks) {
    const disputer = await client.readContract({
      address: distributor,
      abi: distributorReadAbi,
      functionName: 'disputer',
      blockNumber: BigInt(blockNumber),
    });
    disputers.set(blockNumber, BigInt(disputer) === 0n ? null : disputer.toLowerCase());
  }
  return disputers;
}
