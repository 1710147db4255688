import type { ChainConfig } from '../../../internal/config.js';
import type { CursorRow } from './indexingRepo.js';

/** The jobs that keep a per-chain cursor (indexer/store/cursor.ts): what `protocol` names on these routes. */
export const CURSOR_JOBS = ['blocks', 'campaigns', 'claims', 'roots'] as const;

/** The chain head as the node answered it, or why it did not. */
export type HeadReading = { number: number; timestamp: number } | { error: string };

/** One indexing job's progress on a chain, in the hosted NodeStatusItem shape. */
export type NodeStatusItem = {
  protocolId: string;
  protocol: null;
  chainId: number;
  oldestBlock: number;
  currentBlock: number | null;
  lastFetchedBlock: number;
  blockDifference: number | null;
  totalBlockRange: number | null;
  source: string;
  nodeCount: number;
  timeBehind: number | null;
};

export type NodeStatusChain = {
  chainId: number;
  protocols: NodeStatusItem[];
  /** Beyond the hosted shape: why the node's head is unknown (null when it answered). */
  nodeError: string | null;
};

/**
 * Pure: each configured chain's indexing state, keyed by chain id. One item per job cursor on the
 * chain (`protocolId` the job, `source` `cursors`, one node: the cursor): `lastFetchedBlock` and
 * `oldestBlock` its block, `blockDifference` the blocks between it and the head, `totalBlockRange`
 * the blocks from the chain's start block to the head, `timeBehind` the chain seconds between the
 * cursor's block and the head (null when the block is not stored). Head-derived figures are null when
 * the node did not answer (`nodeError` says why).
 */
export function nodeStatus(
  chains: readonly Pick<ChainConfig, 'id' | 'startBlock'>[],
  cursors: readonly CursorRow[],
  heads: ReadonlyMap<number, HeadReading>,
): Record<number, NodeStatusChain> {
  const out: Record<number, NodeStatusChain> = {};
  for (const chain of chains) {
    const head = heads.get(chain.id);
    const known = head && 'number' in head ? head : null;
    out[chain.id] = {
      chainId: chain.id,
      nodeError: head && 'error' in head ? head.error : known ? null : 'not read',
      protocols: cursors
        .filter((c) => c.chain_id === chain.id)
        .map((c) => {
          const block = Number(c.block_number);
          return {
            protocolId: c.job,
            protocol: null,
            chainId: chain.id,
            oldestBlock: block,
            currentBlock: known?.number ?? null,
            lastFetchedBlock: block,
            blockDifference: known ? Math.max(0, known.number - block) : null,
            totalBlockRange: known ? Math.max(0, known.number - chain.startBlock) : null,
            source: 'cursors',
            nodeCount: 1,
            timeBehind:
              known && c.block_timestamp !== null ? Math.max(0, known.timestamp - Number(c.block_timestamp)) : null,
          };
        }),
    };
  }
  return out;
}

/** A job cursor older than allowed, as the hosted etl-health names a stale file. */
export type StaleFile = { prefix: string; name: string; ageMinutes: number };

/**
 * Pure: the age in seconds of each cursor of `chainIds`: for an indexing job, the chain time between
 * its block and the newest stored header (how far it trails the blocks job; null when its block is
 * not stored); for `blocks` itself, the wall-clock time since its last successful run on the chain.
 * @returns the stale ones (older than `maxAgeSeconds`), stalest first, and how many were checked.
 */
export function staleCursors(
  chainIds: readonly number[],
  cursors: readonly CursorRow[],
  newest: ReadonlyMap<number, { number: number; timestamp: number }>,
  blocksSuccess: ReadonlyMap<number, Date>,
  now: Date,
  maxAgeSeconds: number,
): { checked: number; stale: StaleFile[] } {
  const mine = cursors.filter((c) => chainIds.includes(c.chain_id));
  const stale: (StaleFile & { seconds: number })[] = [];
  for (const c of mine) {
    let age: number | null;
    if (c.job === 'blocks') {
      const at = blocksSuccess.get(c.chain_id);
      age = at ? (now.getTime() - at.getTime()) / 1000 : null;
    } else {
      const head = newest.get(c.chain_id);
      age = head && c.block_timestamp !== null ? head.timestamp - Number(c.block_timestamp) : null;
    }
    if (age !== null && age > maxAgeSeconds)
      stale.push({ prefix: c.job, name: `chain-${c.chain_id}`, ageMinutes: Math.floor(age / 60), seconds: age });
  }
  stale.sort((a, b) => b.seconds - a.seconds);
  return { checked: mine.length, stale: stale.map(({ seconds: _, ...s }) => s) };
}
