/**
 * Hardhat time and state controls (evm_mine, hardhat_mine, evm_setNextBlockTimestamp, evm_snapshot,
 * evm_revert) for tests and the demo seeder.
 */
import { toHex } from 'viem';
import { jsonRpc } from './devnet.js';

export type MineParams = {
  rpcUrl: string;
  /** Number of blocks to mine; default 1. */
  blocks?: number;
  /** Unix seconds of the first mined block (must be later than the latest block). */
  timestamp?: number;
};

/**
 * Mines `blocks` blocks, the first one at `timestamp` when given (later ones 1 s apart).
 */
export async function mine({ rpcUrl, blocks = 1, timestamp }: MineParams): Promise<void> {
  if (blocks < 1) return;
  let remaining = blocks;
  if (timestamp !== undefined) {
    await jsonRpc(rpcUrl, 'evm_mine', [timestamp]);
    remaining -= 1;
  }
  if (remaining > 0) await jsonRpc(rpcUrl, 'hardhat_mine', [toHex(remaining)]);
}

/**
 * Sets the timestamp of the next block (mined by the next transaction or `mine`).
 */
export async function setNextBlockTimestamp({
  rpcUrl,
  timestamp,
}: {
  rpcUrl: string;
  timestamp: number;
}): Promise<void> {
  await jsonRpc(rpcUrl, 'evm_setNextBlockTimestamp', [timestamp]);
}

/**
 * Reads the timestamp of the latest block.
 * @returns Unix seconds.
 */
export async function getLatestTimestamp({ rpcUrl }: { rpcUrl: string }): Promise<number> {
  const block = await jsonRpc<{ timestamp: string }>(rpcUrl, 'eth_getBlockByNumber', ['latest', false]);
  return Number(block.timestamp);
}

/**
 * Snapshots the chain state.
 * @returns the snapshot id to pass to `revert` (single use, as in hardhat).
 */
export async function snapshot({ rpcUrl }: { rpcUrl: string }): Promise<string> {
  return jsonRpc<string>(rpcUrl, 'evm_snapshot');
}

/**
 * Reverts the chain to a snapshot (which is consumed).
 * @returns whether hardhat found the snapshot.
 */
export async function revert({ rpcUrl, id }: { rpcUrl: string; id: string }): Promise<boolean> {
  return jsonRpc<boolean>(rpcUrl, 'evm_revert', [id]);
}
