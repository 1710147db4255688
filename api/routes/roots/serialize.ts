import type { RootWindowRow } from './repo.js';

/** Length of a reward epoch in seconds: roots are pushed at most once per hour-long epoch. */
export const EPOCH_SECONDS = 3600;

/** Public root record of GET /v4/roots (docs/api-behaviour.md#roots). */
export type RootResponse = { root: string; chainId: number; epoch: number; timestamp: string; isLatest: boolean };

/**
 * Pure: a root row → `{ root, chainId, epoch, timestamp, isLatest }`. `epoch` is the hour since the
 * Unix epoch the root was recorded in; `timestamp` (a bigint) is a decimal string.
 */
export function serializeRoot(row: RootWindowRow): RootResponse {
  return {
    root: row.root,
    chainId: row.chain_id,
    epoch: Math.floor(Number(row.timestamp) / EPOCH_SECONDS),
    timestamp: row.timestamp,
    isLatest: row.is_latest,
  };
}
