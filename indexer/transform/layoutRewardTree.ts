import {
  CHUNK_LEAVES,
  chunkCount,
  chunkRoot,
  NODE_BYTES,
  topOf,
  type RewardTreeTop,
} from '../../domain/rewardTreeLayout.js';
import type { Keccak } from '../../internal/keccak.js';

/** One leaf as a tree document states it. */
export type LayoutLeaf = { recipient: string; token: string; amount: string };

/** A tree laid out for storage: its top and its sorted leaf hashes (packed), cut in chunks of top.chunkLeaves. */
export type RewardTreeLayout = { top: RewardTreeTop; sorted: Uint8Array };

/** Chunk `c` of a layout's sorted hashes (a view). */
export const chunkOf = (layout: RewardTreeLayout, c: number): Uint8Array =>
  layout.sorted.subarray(
    c * layout.top.chunkLeaves * NODE_BYTES,
    Math.min(layout.top.leafCount, (c + 1) * layout.top.chunkLeaves) * NODE_BYTES,
  );

/** Pure (keccak passed in): the layout of leaf hashes already sorted (packed, at least one). */
export function layoutHashes(keccak: Keccak, sorted: Uint8Array, chunkLeaves = CHUNK_LEAVES): RewardTreeLayout {
  const n = sorted.length / NODE_BYTES;
  const roots = new Uint8Array(chunkCount(n, chunkLeaves) * NODE_BYTES);
  const layout = { sorted, top: { leafCount: n, chunkLeaves } as RewardTreeTop };
  for (let c = 0; c < chunkCount(n, chunkLeaves); c++) roots.set(chunkRoot(keccak, chunkOf(layout, c)), c * NODE_BYTES);
  return { sorted, top: topOf(keccak, roots, n, chunkLeaves) };
}
