import type { ChainClient } from '../../internal/rpc.js';

const DAY = 86_400;

/** The stored block (number, timestamp) latest at or before `timestamp` on the chain; null when none is. */
export type BlockAt = (chainId: number, timestamp: number) => Promise<{ number: number; timestamp: number } | null>;

/** The head and the block a day before it; `past` null (and `detail` why) when there is none to compare with. */
export type LookBack = {
  head: { number: bigint; timestamp: number };
  past: { number: number; timestamp: number } | null;
  detail?: string;
};

/**
 * The chain's head and the stored block (`blocks`, via `blockAt`) latest at or before the head's timestamp
 * − 24 h, the window of the native APRs measured over the last day (docs/api-behaviour.md#native-apr).
 * No such block, or the latest one over two days old (its growth would be a mean of days ago): `past` null.
 * @throws the node's failure of the head read.
 */
export async function lookBackADay(chainClient: ChainClient, blockAt: BlockAt): Promise<LookBack> {
  const block = await chainClient.client.getBlock({ blockTag: 'latest' });
  const head = { number: block.number, timestamp: Number(block.timestamp) };
  const past = await blockAt(chainClient.chain.id, head.timestamp - DAY);
  if (past && past.timestamp >= head.timestamp - 2 * DAY) return { head, past };
  return {
    head,
    past: null,
    detail: past ? `the latest stored block a day old is from ${past.timestamp}` : 'no stored block a day old',
  };
}
