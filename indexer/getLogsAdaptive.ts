import type { AbiEvent, Address, GetLogsReturnType, PublicClient } from 'viem';
import type { BlockRange } from './plan.js';
import { isRangeTooLargeError } from './rpc.js';

export type GetLogsAdaptiveParams<E extends AbiEvent> = {
  client: PublicClient;
  address: Address | Address[];
  event: E;
  range: BlockRange;
};

/**
 * getLogs over an inclusive block range, halving the range whenever the node refuses its size
 * (adaptive range splitting); other errors propagate (viem already retried transient ones).
 * @returns the decoded logs in block order.
 */
export async function getLogsAdaptive<E extends AbiEvent>({ client, address, event, range }: GetLogsAdaptiveParams<E>): Promise<GetLogsReturnType<E, [E], true>> {
  try {
    return (await client.getLogs({ address, event, fromBlock: BigInt(range.from), toBlock: BigInt(range.to), strict: true })) as GetLogsReturnType<E, [E], true>;
  } catch (error) {
    if (range.to === range.from || !isRangeTooLargeError(error)) throw error;
    const mid = Math.floor((range.from + range.to) / 2);
    const left = await getLogsAdaptive({ client, address, event, range: { from: range.from, to: mid } });
    const right = await getLogsAdaptive({ client, address, event, range: { from: mid + 1, to: range.to } });
    return [...left, ...right] as GetLogsReturnType<E, [E], true>;
  }
}
