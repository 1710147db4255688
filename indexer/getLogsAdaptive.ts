import type { AbiEvent, Address, GetLogsReturnType, PublicClient } from 'viem';
import type { BlockRange } from './plan.js';
import { isRangeTooLargeError } from './rpc.js';

export type GetLogsAdaptiveParams<E extends readonly AbiEvent[]> = {
  client: PublicClient;
  address: Address | Address[];
  /** One or several events of the same contract(s), fetched in one getLogs call. */
  events: E;
  range: BlockRange;
};

/**
 * getLogs over an inclusive block range, halving the range whenever the node refuses its size
 * (adaptive range splitting); other errors propagate (viem already retried transient ones).
 * @returns the decoded logs in chain order.
 */
export async function getLogsAdaptive<const E extends readonly AbiEvent[]>({ client, address, events, range }: GetLogsAdaptiveParams<E>): Promise<GetLogsReturnType<undefined, E, true>> {
  try {
    return (await client.getLogs({ address, events, fromBlock: BigInt(range.from), toBlock: BigInt(range.to), strict: true })) as GetLogsReturnType<undefined, E, true>;
  } catch (error) {
    if (range.to === range.from || !isRangeTooLargeError(error)) throw error;
    const mid = Math.floor((range.from + range.to) / 2);
    const left = await getLogsAdaptive({ client, address, events, range: { from: range.from, to: mid } });
    const right = await getLogsAdaptive({ client, address, events, range: { from: mid + 1, to: range.to } });
    return [...left, ...right] as GetLogsReturnType<undefined, E, true>;
  }
}
