/**
 * What the dispute logs do not carry, read from the Distributor's storage at each log's block (the
 * state after that block): DisputeResolved(false) recomputes `endOfDisputePeriod` from the resolution
 * time and emits no TreeUpdated (docs/contracts.md#dispute-period-and-the-live-root; a later TreeUpdated
 * in the same block has its own row), and Disputed names only the reason, not who disputed.
 */
import type { Address, PublicClient } from 'viem';
import { distributorReadAbi } from '../../domain/abis/distributor.js';
import type { RootLifecycleEvent } from '../decode/distributorEvents.js';

/** One getter of the Distributor read at each distinct block of `events` that `holds`, one call after another. */
async function readAtBlocks<T>(
  events: readonly RootLifecycleEvent[],
  holds: (e: RootLifecycleEvent) => boolean,
  read: (blockNumber: bigint) => Promise<T>,
): Promise<Map<number, T>> {
  const values = new Map<number, T>();
  for (const blockNumber of new Set(events.filter(holds).map((e) => e.blockNumber)))
    values.set(blockNumber, await read(BigInt(blockNumber)));
  return values;
}

/** @returns block number → `endOfDisputePeriod()` at that block, for each block holding a DisputeResolved(false). */
export async function readRejectedDisputeEnds(
  client: PublicClient,
  distributor: Address,
  events: readonly RootLifecycleEvent[],
): Promise<Map<number, number>> {
  return readAtBlocks(
    events,
    (e) => e.kind === 'dispute_resolved' && !e.valid,
    async (blockNumber) =>
      Number(
        await client.readContract({
          address: distributor,
          abi: distributorReadAbi,
          functionName: 'endOfDisputePeriod',
          blockNumber,
        }),
      ),
  );
}

/**
 * Who opened each dispute: `disputer()` at the block of each Disputed log (the dispute's `msg.sender`,
 * which a multisig's transaction sender is not). Zero after that block (the dispute resolved in the
 * same block) reads as null.
 * @returns block number → disputer (lower case) or null, for each block holding a Disputed log.
 */
export async function readDisputers(
  client: PublicClient,
  distributor: Address,
  events: readonly RootLifecycleEvent[],
): Promise<Map<number, string | null>> {
  return readAtBlocks(
    events,
    (e) => e.kind === 'disputed',
    async (blockNumber) => {
      const disputer = await client.readContract({
        address: distributor,
        abi: distributorReadAbi,
        functionName: 'disputer',
        blockNumber,
      });
      return BigInt(disputer) === 0n ? null : disputer.toLowerCase();
    },
  );
}
