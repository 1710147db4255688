/**
 * Reward Merkle trees exactly as the Distributor verifies them (docs/contracts.md#reward-tree): leaf =
 * keccak256(abi.encode(user, token, cumulativeAmount)) hashed once, leaves sorted ascending, zero amounts
 * dropped, pairs hashed in sorted order, an odd node promoted unchanged (merkletreejs with
 * `{ sortLeaves: true, sortPairs: true, hashLeaves: false }`, `duplicateOdd: false`).
 * Pure: no I/O.
 */
import { concat, encodeAbiParameters, keccak256, zeroHash } from 'viem';
import type { Address, Hex } from 'viem';
import { BaseError } from '../internal/errors.js';

/** One (user, token) entry; `amount` is the cumulative total ever earned, never a delta. */
export type RewardLeaf = { user: Address; token: Address; amount: bigint };

export type HashedRewardLeaf = RewardLeaf & { hash: Hex };

export type RewardTree = {
  /** `zeroHash` when there is no non-zero leaf (the Distributor refuses to claim against it). */
  root: Hex;
  /** Proof per `rewardTreeKey(user, token)`; empty for a single-leaf tree. */
  proofs: Map<string, Hex[]>;
  /** The non-zero leaves in tree order (ascending hash). */
  leaves: HashedRewardLeaf[];
};

/** Thrown when the same (user, token) pair appears twice: callers must sum per pair first. */
export class RewardTreeError extends BaseError {
  override name = 'RewardTreeError';
}

const leafParams = [{ type: 'address' }, { type: 'address' }, { type: 'uint256' }] as const;

const lower = (a: Address) => a.toLowerCase() as Address;

/** Key of `RewardTree.proofs`: `${user}-${token}`, lowercased. */
export function rewardTreeKey(user: Address, token: Address): string {
  return `${user}-${token}`.toLowerCase();
}

/**
 * Hashes one leaf: `keccak256(abi.encode(user, token, amount))`. Addresses of any case are accepted
 * (the encoding does not depend on case; lowercasing skips viem's checksum validation).
 * @returns the 32-byte leaf hash.
 */
export function hashLeaf({ user, token, amount }: RewardLeaf): Hex {
  return keccak256(encodeAbiParameters(leafParams, [lower(user), lower(token), amount]));
}

/** keccak256 of the two nodes concatenated smallest first (unsigned 256-bit compare). */
function hashPair(a: Hex, b: Hex): Hex {
  return BigInt(a) < BigInt(b) ? keccak256(concat([a, b])) : keccak256(concat([b, a]));
}

/**
 * Builds the tree and a proof for every leaf.
 * @param leaves one entry per (user, token) with its cumulative amount; zero amounts are dropped.
 * @returns root, proofs keyed by `rewardTreeKey`, and the hashed leaves in tree order.
 * @throws RewardTreeError on a duplicate (user, token) pair or a negative amount.
 */
export function buildRewardTree(leaves: readonly RewardLeaf[]): RewardTree {
  const seen = new Set<string>();
  const hashed: HashedRewardLeaf[] = [];
  for (const leaf of leaves) {
    const key = rewardTreeKey(leaf.user, leaf.token);
    if (seen.has(key)) throw new RewardTreeError(`duplicate leaf for ${key}: sum amounts per (user, token) first`);
    seen.add(key);
    if (leaf.amount < 0n) throw new RewardTreeError(`negative amount for ${key}`);
    if (leaf.amount === 0n) continue;
    hashed.push({ ...leaf, hash: hashLeaf(leaf) });
  }
  // keccak256 output is fixed-length lowercase hex, so string order is numeric order.
  hashed.sort((x, y) => (x.hash < y.hash ? -1 : 1));
  if (hashed.length === 0) return { root: zeroHash, proofs: new Map(), leaves: [] };

  const layers: Hex[][] = [hashed.map((l) => l.hash)];
  for (let layer = layers[0]!; layer.length > 1; layer = layers[layers.length - 1]!) {
    const next: Hex[] = [];
    for (let i = 0; i < layer.length; i += 2) {
      const right = layer[i + 1];
      // Odd node: promoted to the next layer unchanged (no duplication).
      next.push(right === undefined ? layer[i]! : hashPair(layer[i]!, right));
    }
    layers.push(next);
  }

  const proofs = new Map<string, Hex[]>();
  hashed.forEach((leaf, leafIndex) => {
    const proof: Hex[] = [];
    let index = leafIndex;
    for (const layer of layers.slice(0, -1)) {
      const sibling = layer[index % 2 === 0 ? index + 1 : index - 1];
      if (sibling !== undefined) proof.push(sibling);
      index = Math.floor(index / 2);
    }
    proofs.set(rewardTreeKey(leaf.user, leaf.token), proof);
  });
  return { root: layers[layers.length - 1]![0]!, proofs, leaves: hashed };
}

/**
 * Checks a proof the way `Distributor.claim` does.
 * @returns true when folding `proof` into `leaf` with sorted-pair hashing yields `root`.
 */
export function verifyProof({ leaf, proof, root }: { leaf: Hex; proof: readonly Hex[]; root: Hex }): boolean {
  const computed = proof.reduce<Hex>((h, p) => hashPair(h, p), leaf);
  return computed.toLowerCase() === root.toLowerCase();
}

export type RewardTreeStatus = 'pending' | 'verified' | 'mismatch' | 'unavailable';
