import { formatLog, parseEventLogs, toEventSelector, toHex, type AbiEvent, type Address, type Log, type ParseEventLogsReturnType, type PublicClient, type RpcLog } from 'viem';
import type { BlockRange } from './plan.js';
import { withRetry } from './retry.js';
import { isRangeTooLargeError, isRetryableRpcError } from './rpc.js';

export type GetLogsAdaptiveParams<E extends readonly AbiEvent[]> = {
  client: PublicClient;
  address: Address | Address[];
  /** One or several events of the same contract(s), fetched in one eth_getLogs call. */
  events: E;
  range: BlockRange;
  /** Retries of a transient failure (network, timeout, 429, 5xx) before failing loudly. */
  retries?: number;
  signal?: AbortSignal;
};

/**
 * eth_getLogs over an inclusive block range. A node refusing the range's size gets the range halved
 * at once (adaptive splitting, never retried as is); transient failures are retried with
 * exponential backoff up to `retries` times; anything else propagates.
 * @returns the decoded logs in chain order.
 */
export async function getLogsAdaptive<const E extends readonly AbiEvent[]>(params: GetLogsAdaptiveParams<E>): Promise<ParseEventLogsReturnType<E, undefined, true>> {
  const { client, address, events, range, retries = 3, signal } = params;
  try {
    const raw = await withRetry(
      () => client.request(
        { method: 'eth_getLogs', params: [{ address, topics: [events.map((e) => toEventSelector(e))], fromBlock: toHex(range.from), toBlock: toHex(range.to) }] },
        { retryCount: 0 },
      ) as Promise<RpcLog[]>,
      { retries, baseDelayMs: 250, maxDelayMs: 5000, shouldRetry: (e) => !isRangeTooLargeError(e) && isRetryableRpcError(e), ...(signal ? { signal } : {}) },
    );
    return parseEventLogs({ abi: events, logs: raw.map((l) => formatLog(l) as Log), strict: true }) as ParseEventLogsReturnType<E, undefined, true>;
  } catch (error) {
    if (range.to === range.from || !isRangeTooLargeError(error)) throw error;
    const mid = Math.floor((range.from + range.to) / 2);
    const left = await getLogsAdaptive({ ...params, range: { from: range.from, to: mid } });
    const right = await getLogsAdaptive({ ...params, range: { from: mid + 1, to: range.to } });
    return [...left, ...right] as ParseEventLogsReturnType<E, undefined, true>;
  }
}
