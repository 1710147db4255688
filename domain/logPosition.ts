import type { Hex } from 'viem';

/** Where a log sits on its chain. */
export type LogPosition = { chainId: number; blockNumber: number; blockHash: Hex; txHash: Hex; logIndex: number };

/** Pure: chain order of logs (block number, then log index). */
export function compareLogPosition(
  a: Pick<LogPosition, 'blockNumber' | 'logIndex'>,
  b: Pick<LogPosition, 'blockNumber' | 'logIndex'>,
): number {
  return a.blockNumber - b.blockNumber || a.logIndex - b.logIndex;
}
