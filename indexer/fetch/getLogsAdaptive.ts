import {
  formatLog,
  parseEventLogs,
  toEventSelector,
  toHex,
  type AbiEvent,
  type Address,
  type Log,
  type ParseEventLogsReturnType,
  type PublicClient,
  type RpcLog,
} from 'viem';
import { createLogSpan, type LogSpan } from './logSpan.js';
import type { BlockRange } from './planRanges.js';
import { withRetry } from '../../internal/retry.js';
import { isRetryableRpcError } from '../../internal/errorSources/rpc.js';
import { isRangeTooLargeError } from '../../internal/rpc.js';

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

/** One eth_getLogs call over `range`, transient failures retried with exponential backoff; a range refused as too large is thrown at once. */
function requestLogs<E extends readonly AbiEvent[]>({
  client,
  address,
  events,
  range,
  retries = 3,
  signal,
}: GetLogsAdaptiveParams<E>): Promise<RpcLog[]> {
  return withRetry(
    () =>
      client.request(
        {
          method: 'eth_getLogs',
          params: [
            {
              address,
              topics: [events.map((e) => toEventSelector(e))],
              fromBlock: toHex(range.from),
              toBlock: toHex(range.to),
            },
          ],
        },
        { retryCount: 0 },
      ) as Promise<RpcLog[]>,
    {
      retries,
      baseDelayMs: 250,
      maxDelayMs: 5000,
      shouldRetry: (e) => !isRangeTooLargeError(e) && isRetryableRpcError(e),
      ...(signal ? { signal } : {}),
    },
  );
}

/**
 * eth_getLogs over an inclusive block range, decoded by viem (logs of none of `events` are dropped,
 * as parseEventLogs strict does). A node refusing a span as too large (block range, result count or
 * response size) gets it halved at once and the walk goes on at that span (fetchNextLogs, never
 * retried as is); transient failures are retried up to `retries` times; anything else propagates.
 */
export async function getLogsAdaptive<const E extends readonly AbiEvent[]>(
  params: GetLogsAdaptiveParams<E>,
): Promise<ParseEventLogsReturnType<E, undefined, true>> {
  const { range, ...rest } = params;
  const blocks = range.to - range.from + 1;
  const span = createLogSpan({ max: blocks, initial: blocks });
  const raw: RpcLog[] = [];
  for (let from = range.from; from <= range.to; ) {
    const next = await fetchNextLogs({ ...rest, from, limit: range.to, span });
    for (const log of next.logs) raw.push(log);
    from = next.range.to + 1;
  }
  return parseEventLogs({
    abi: params.events,
    logs: raw.map((l) => formatLog(l) as Log),
    strict: true,
  }) as ParseEventLogsReturnType<E, undefined, true>;
}

export type FetchNextLogsParams<E extends readonly AbiEvent[]> = Omit<GetLogsAdaptiveParams<E>, 'range'> & {
  /** First block to read. */
  from: number;
  /** Last block that may be read (inclusive). */
  limit: number;
  span: LogSpan;
};

/**
 * The logs of the next range from `from`, as wide as `span` allows: a range refused as too large
 * shrinks the span and is asked again narrower (down to one block, then the refusal propagates).
 * @returns the range actually read and its logs as the node sent them.
 */
export async function fetchNextLogs<E extends readonly AbiEvent[]>({
  from,
  limit,
  span,
  ...params
}: FetchNextLogsParams<E>): Promise<{ range: BlockRange; logs: RpcLog[] }> {
  for (;;) {
    const range = { from, to: Math.min(limit, from + span.current() - 1) };
    try {
      const logs = await requestLogs({ ...params, range });
      span.answered(logs.length);
      return { range, logs };
    } catch (error) {
      if (range.to === range.from || !isRangeTooLargeError(error)) throw error;
      span.refused(range.to - range.from + 1);
    }
  }
}
