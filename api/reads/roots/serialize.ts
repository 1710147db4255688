import type { LiveRootState } from '../roots.js';
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

const ZERO_ROOT = `0x${'0'.repeat(64)}`;

/**
 * One chain of GET /v4/roots/live: the hosted service's `{ live, tree, lastTree, endOfDisputePeriod }`
 * (docs/api-behaviour.md#live-roots), extended with `pending` (the latest root while it is not live
 * yet, else null), `disputeOpen` and `chainTime` (the indexed chain time the rule was decided at); the
 * hosted `disputer` while a dispute is open and its disputer is known.
 */
export type LiveRootResponse = {
  live: string;
  tree: string;
  lastTree: string;
  endOfDisputePeriod: number;
  pending: string | null;
  disputeOpen: boolean;
  disputer?: string;
  chainTime: number | null;
};

/**
 * Pure: the live-root state of a chain and its stored endOfDisputePeriod → LiveRootResponse. Roots
 * that do not exist are the zero hash, as the Distributor's getters return them.
 */
export function serializeLiveRoot(state: LiveRootState, endOfDisputePeriod: number): LiveRootResponse {
  const [tree, lastTree] = state.latest;
  const live = state.live?.root ?? ZERO_ROOT;
  return {
    live,
    tree: tree?.root ?? ZERO_ROOT,
    lastTree: lastTree?.root ?? ZERO_ROOT,
    endOfDisputePeriod,
    pending: tree && tree.root !== live ? tree.root : null,
    disputeOpen: state.disputeOpen,
    ...(state.disputeOpen && state.disputer ? { disputer: state.disputer } : {}),
    chainTime: state.now,
  };
}
