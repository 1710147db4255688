import { RewardTreeError } from '../../domain/rewardTree.js';
import {
  CHUNK_LEAVES,
  chunkCount,
  chunkRoot,
  hashLeafBytes,
  NODE_BYTES,
  sortNodes,
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

/**
 * Pure (keccak passed in): hashes every non-zero leaf, sorts the hashes and computes the chunk
 * roots and the top; null for a tree without a non-zero leaf (its root is the zero hash).
 * @throws RewardTreeError on a repeated (recipient, token) pair or a negative amount.
 */
export function layoutRewardTree(
  keccak: Keccak,
  leaves: readonly LayoutLeaf[],
  chunkLeaves = CHUNK_LEAVES,
): RewardTreeLayout | null {
  const seen = new Set<string>();
  const packed = new Uint8Array(leaves.length * NODE_BYTES);
  let n = 0;
  for (const leaf of leaves) {
    const key = `${leaf.recipient}-${leaf.token}`.toLowerCase();
    if (seen.has(key)) throw new RewardTreeError(`duplicate leaf for ${key}: sum amounts per (user, token) first`);
    seen.add(key);
    const amount = BigInt(leaf.amount);
    if (amount < 0n) throw new RewardTreeError(`negative amount for ${key}`);
    if (amount === 0n) continue;
    packed.set(hashLeafBytes(keccak, leaf.recipient, leaf.token, amount), n * NODE_BYTES);
    n += 1;
  }
  if (!n) return null;
  return layoutHashes(keccak, sortNodes(packed.subarray(0, n * NODE_BYTES)), chunkLeaves);
}

/** Pure (keccak passed in): the layout of leaf hashes already sorted (packed, at least one). */
export function layoutHashes(keccak: Keccak, sorted: Uint8Array, chunkLeaves = CHUNK_LEAVES): RewardTreeLayout {
  const n = sorted.length / NODE_BYTES;
  const roots = new Uint8Array(chunkCount(n, chunkLeaves) * NODE_BYTES);
  const layout = { sorted, top: { leafCount: n, chunkLeaves } as RewardTreeTop };
  for (let c = 0; c < chunkCount(n, chunkLeaves); c++) roots.set(chunkRoot(keccak, chunkOf(layout, c)), c * NODE_BYTES);
  return { sorted, top: topOf(keccak, roots, n, chunkLeaves) };
}
