/**
 * A reward tree laid out for storage (docs/contracts.md#reward-tree; the same tree as
 * domain/rewardTree.ts builds, at the speed and memory a million leaves need): leaf hashes sorted
 * ascending, cut into aligned chunks of CHUNK_LEAVES leaves (a power of two, so each chunk is a
 * subtree whose root is a node of the tree), and the "top": every layer from the chunk roots up to
 * the root. A proof is the path inside the leaf's chunk (recomputed from its CHUNK_LEAVES hashes)
 * followed by the path in the top, so serving one reads one chunk and the top, never the tree.
 * Nodes are packed: a layer of n nodes is one Uint8Array of n × 32 bytes.
 * Pure: no I/O (the keccak is passed in).
 */
import type { Keccak } from '../internal/keccak.js';
import { BaseError } from '../internal/errors.js';

export const NODE_BYTES = 32;
/** Leaves per stored chunk: 32 KiB of hashes, 1,023 hashes to rebuild its part of a proof. */
export const CHUNK_LEAVES = 1024;

/** Thrown on a layout that cannot be a tree (a chunk size that is not a power of two, a misaligned layer). */
export class RewardTreeLayoutError extends BaseError {
  override name = 'RewardTreeLayoutError';
}

/** Node `i` of a packed layer (a view, not a copy). */
export const nodeAt = (layer: Uint8Array, i: number): Uint8Array =>
  layer.subarray(i * NODE_BYTES, (i + 1) * NODE_BYTES);

/** Number of nodes of a packed layer. */
export const nodeCount = (layer: Uint8Array): number => layer.length / NODE_BYTES;

/** Unsigned 256-bit comparison of two nodes (big-endian bytes). */
export function compareNodes(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < NODE_BYTES; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

/** keccak256 of the two nodes concatenated smallest first, as the Distributor folds a proof. */
export function hashPair(keccak: Keccak, a: Uint8Array, b: Uint8Array): Uint8Array {
  return compareNodes(a, b) < 0 ? keccak.hashTwo(a, b) : keccak.hashTwo(b, a);
}

/** One layer up: nodes (2i, 2i+1) hashed as a sorted pair; an odd last node is promoted unchanged. */
export function parentLayer(keccak: Keccak, layer: Uint8Array): Uint8Array {
  const n = nodeCount(layer);
  const out = new Uint8Array(Math.ceil(n / 2) * NODE_BYTES);
  for (let i = 0; i < n; i += 2) {
    const node = i + 1 < n ? hashPair(keccak, nodeAt(layer, i), nodeAt(layer, i + 1)) : nodeAt(layer, i);
    out.set(node, (i / 2) * NODE_BYTES);
  }
  return out;
}

/** Every layer from `leaves` (packed, sorted) up to the one-node root layer; `[leaves]` for one leaf. */
export function layersOf(keccak: Keccak, leaves: Uint8Array): Uint8Array[] {
  if (!leaves.length) throw new RewardTreeLayoutError('a tree has at least one leaf');
  const layers = [leaves];
  while (nodeCount(layers[layers.length - 1]!) > 1) layers.push(parentLayer(keccak, layers[layers.length - 1]!));
  return layers;
}

/** The siblings of node `index` of the first layer, bottom up (a promoted node has none at that level). */
export function proofInLayers(layers: readonly Uint8Array[], index: number): Uint8Array[] {
  const proof: Uint8Array[] = [];
  let i = index;
  for (const layer of layers.slice(0, -1)) {
    const sibling = i % 2 === 0 ? i + 1 : i - 1;
    if (sibling < nodeCount(layer)) proof.push(nodeAt(layer, sibling));
    i = Math.floor(i / 2);
  }
  return proof;
}

/** A tree as stored: its root, its leaf count, and the top layers over its chunk roots. */
export type RewardTreeTop = {
  root: Uint8Array;
  leafCount: number;
  chunkLeaves: number;
  /** Layers from the chunk roots (first) up to the root (last), packed each. */
  layers: Uint8Array[];
};

function assertChunkSize(chunkLeaves: number): void {
  if (!Number.isInteger(Math.log2(chunkLeaves)) || chunkLeaves < 2)
    throw new RewardTreeLayoutError(`chunk size ${chunkLeaves} is not a power of two ≥ 2`);
}

/** Number of chunks of a tree of `leafCount` leaves. */
export const chunkCount = (leafCount: number, chunkLeaves = CHUNK_LEAVES): number => Math.ceil(leafCount / chunkLeaves);

/** The root of one chunk (its packed, sorted leaf hashes): a node of the tree at level log2(chunkLeaves). */
export function chunkRoot(keccak: Keccak, chunk: Uint8Array): Uint8Array {
  const layers = layersOf(keccak, chunk);
  return nodeAt(layers[layers.length - 1]!, 0);
}

/**
 * The top of a tree from its chunk roots in order (each chunk but the last holds exactly
 * `chunkLeaves` leaves). With one chunk the top is that chunk's root alone.
 */
export function topOf(
  keccak: Keccak,
  chunkRoots: Uint8Array,
  leafCount: number,
  chunkLeaves = CHUNK_LEAVES,
): RewardTreeTop {
  assertChunkSize(chunkLeaves);
  if (nodeCount(chunkRoots) !== chunkCount(leafCount, chunkLeaves))
    throw new RewardTreeLayoutError(`${nodeCount(chunkRoots)} chunk roots for ${leafCount} leaves`);
  const layers = layersOf(keccak, chunkRoots);
  return { root: nodeAt(layers[layers.length - 1]!, 0), leafCount, chunkLeaves, layers };
}

/**
 * The proof of leaf `index` (its position in sorted order): the path inside its chunk (`chunk`: the
 * chunk's packed leaf hashes) then the path through the top, bottom up: what `Distributor.claim` folds.
 */
export function proofOfLeaf(keccak: Keccak, top: RewardTreeTop, chunk: Uint8Array, index: number): Uint8Array[] {
  const chunkIndex = Math.floor(index / top.chunkLeaves);
  const local = index - chunkIndex * top.chunkLeaves;
  if (local >= nodeCount(chunk)) throw new RewardTreeLayoutError(`leaf ${index} is not in chunk ${chunkIndex}`);
  return [...proofInLayers(layersOf(keccak, chunk), local), ...proofInLayers(top.layers, chunkIndex)];
}

/** The top's layers as one byte string (stored), and back: layer sizes follow from the chunk count. */
export function encodeTopLayers(top: RewardTreeTop): Uint8Array {
  const out = new Uint8Array(top.layers.reduce((n, l) => n + l.length, 0));
  let offset = 0;
  for (const layer of top.layers) {
    out.set(layer, offset);
    offset += layer.length;
  }
  return out;
}

export function decodeTopLayers(bytes: Uint8Array, leafCount: number, chunkLeaves: number): RewardTreeTop {
  assertChunkSize(chunkLeaves);
  const layers: Uint8Array[] = [];
  let offset = 0;
  for (let n = chunkCount(leafCount, chunkLeaves); ; n = Math.ceil(n / 2)) {
    layers.push(bytes.subarray(offset, offset + n * NODE_BYTES));
    offset += n * NODE_BYTES;
    if (n === 1) break;
  }
  if (offset !== bytes.length)
    throw new RewardTreeLayoutError(`top of ${bytes.length} bytes does not fit ${leafCount} leaves`);
  return { root: nodeAt(layers[layers.length - 1]!, 0), leafCount, chunkLeaves, layers };
}

/** abi.encode(address user, address token, uint256 amount): the 96 bytes a leaf hashes. */
export function encodeLeaf(user: string, token: string, amount: bigint): Uint8Array {
  if (amount < 0n || amount >= 2n ** 256n) throw new RewardTreeLayoutError(`amount ${amount} is not a uint256`);
  const out = Buffer.alloc(96);
  writeHex(out, user, 12, 20);
  writeHex(out, token, 44, 20);
  const digits = amount.toString(16);
  out.write(digits.length % 2 ? `0${digits}` : digits, 96 - Math.ceil(digits.length / 2), 'hex');
  return out;
}

/** Writes `0x…` of exactly `length` bytes at `offset` (Buffer's hex decoder: a million leaves a second). */
function writeHex(out: Buffer, hex: string, offset: number, length: number): void {
  if (hex.length !== 2 + length * 2 || out.write(hex.slice(2), offset, length, 'hex') !== length)
    throw new RewardTreeLayoutError(`${hex} is not ${length} bytes of hex`);
}

/** The leaf hash of (user, token, amount): keccak256(abi.encode(user, token, amount)). */
export const hashLeafBytes = (keccak: Keccak, user: string, token: string, amount: bigint): Uint8Array =>
  keccak.hash(encodeLeaf(user, token, amount));

/**
 * Sorts packed nodes ascending (a new array): indices ordered by each node's first six bytes
 * (exact in a float), ties by the whole node.
 */
export function sortNodes(packed: Uint8Array): Uint8Array {
  const n = nodeCount(packed);
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const o = i * NODE_BYTES;
    keys[i] =
      packed[o]! * 2 ** 40 +
      packed[o + 1]! * 2 ** 32 +
      packed[o + 2]! * 2 ** 24 +
      packed[o + 3]! * 2 ** 16 +
      packed[o + 4]! * 2 ** 8 +
      packed[o + 5]!;
  }
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort((a, b) => keys[a]! - keys[b]! || compareNodes(nodeAt(packed, a), nodeAt(packed, b)));
  const out = new Uint8Array(packed.length);
  for (let i = 0; i < n; i++) out.set(nodeAt(packed, order[i]!), i * NODE_BYTES);
  return out;
}
