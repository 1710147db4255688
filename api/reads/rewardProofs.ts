import { bytesToHex, type Hex } from 'viem';
import {
  compareNodes,
  decodeTopLayers,
  hashLeafBytes,
  nodeAt,
  CHUNK_LEAVES,
  chunkRoot,
  encodeTopLayers,
  NODE_BYTES,
  nodeCount,
  proofOfLeaf,
  type RewardTreeTop,
  sortNodes,
  topOf,
} from '../../domain/rewardTreeLayout.js';
import { rewardTreeKey } from '../../domain/rewardTree.js';
import { loadKeccak } from '../../internal/keccak.js';
import type { PgPool } from '../../internal/pg.js';
import { ServiceUnavailableError } from '../errors.js';
import { BaseError } from '../../internal/errors.js';

/** A leaf to prove: what the tree of the root holds for (recipient, token). */
export type ProofLeaf = { recipient: string; token: string; amount: string };

export type ProofsOfParams = { chainId: number; root: string; leaves: readonly ProofLeaf[] };

/** Proofs of leaves of a verified root, by rewardTreeKey(recipient, token); zero amounts have none. */
export type ProofSource = { proofsOf(params: ProofsOfParams): Promise<Map<string, Hex[]>> };

/** The stored material does not hold a leaf its root's amounts say it has (never expected). */
export class ProofMaterialError extends BaseError {
  override name = 'ProofMaterialError';
}

/** Index of `node` in a chunk's packed sorted hashes, or -1. */
function indexInChunk(chunk: Uint8Array, node: Uint8Array): number {
  let lo = 0;
  let hi = nodeCount(chunk) - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const c = compareNodes(nodeAt(chunk, mid), node);
    if (c === 0) return mid;
    if (c < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/**
 * Runs the code a proof runs (leaf hashes, a chunk's search and layers, a top decoded) once on a
 * made-up tree of two chunks, so the first caller of a fresh API process does not pay for it cold:
 * measured at 100,000 leaves, a first proof took 10.6 ms of JavaScript, the next ones 2–3 ms (the
 * rest of a first read: connections, api/server.ts). ~2,000 hashes, a few ms, before the API listens.
 */
export async function warmProofCode(): Promise<void> {
  const keccak = await loadKeccak();
  const recipient = `0x${'00'.repeat(19)}01`;
  const hashes = new Uint8Array((CHUNK_LEAVES + 1) * NODE_BYTES);
  for (let i = 0; i <= CHUNK_LEAVES; i++)
    hashes.set(hashLeafBytes(keccak, recipient, recipient, BigInt(i + 1)), i * NODE_BYTES);
  const sorted = sortNodes(hashes);
  const chunks = [sorted.subarray(0, CHUNK_LEAVES * NODE_BYTES), sorted.subarray(CHUNK_LEAVES * NODE_BYTES)];
  const roots = new Uint8Array(2 * NODE_BYTES);
  chunks.forEach((chunk, i) => roots.set(chunkRoot(keccak, chunk), i * NODE_BYTES));
  const top = decodeTopLayers(encodeTopLayers(topOf(keccak, roots, CHUNK_LEAVES + 1)), CHUNK_LEAVES + 1, CHUNK_LEAVES);
  const leaf = hashLeafBytes(keccak, recipient, recipient, 1n);
  const local = indexInChunk(chunks[0]!, leaf);
  if (local < 0 || !proofOfLeaf(keccak, top, chunks[0]!, local).length) throw new ProofMaterialError('warm-up proof');
}

/**
 * Proofs answered from the proof material the roots job stores (domain/rewardTreeLayout.ts): per
 * request one read of each leaf's chunk (32 KiB, found by its first hash) and the tree's top, kept
 * for the last `maxTops` roots (a few KiB each: a million leaves make a 62 KiB top). No tree is
 * ever built or held here; a leaf costs ~1,000 hashes (~1 ms). A verified root whose material is
 * not stored yet (the roots job rebuilds it within a run) is a 503.
 * Tables reward_trees, reward_tree_chunks.
 */
export function createProofSource({ db, maxTops = 32 }: { db: Pick<PgPool, 'query'>; maxTops?: number }): ProofSource {
  // Compiled now rather than by the first request that needs a proof (~20–30 ms of WebAssembly); a
  // failure shows when a proof is asked for.
  loadKeccak().catch(() => {});
  const tops = new Map<string, Promise<RewardTreeTop | null>>();
  const topOf = (chainId: number, root: string): Promise<RewardTreeTop | null> => {
    const key = `${chainId}:${root}`;
    let hit = tops.get(key);
    if (hit) tops.delete(key);
    else
      hit = db
        .query<{ leaves: number | null; chunk_leaves: number | null; top_layers: Buffer | null }>(
          'SELECT leaves, chunk_leaves, top_layers FROM reward_trees WHERE chain_id = $1 AND root = $2',
          [chainId, root],
        )
        .then(({ rows: [row] }) =>
          row?.top_layers && row.chunk_leaves && row.leaves
            ? decodeTopLayers(new Uint8Array(row.top_layers), row.leaves, row.chunk_leaves)
            : null,
        );
    // A missing top is not kept: the roots job may store it any moment.
    void hit.then((top) => top === null && tops.get(key) === hit && tops.delete(key)).catch(() => tops.delete(key));
    tops.set(key, hit);
    while (tops.size > maxTops) tops.delete(tops.keys().next().value!);
    return hit;
  };
  return {
    async proofsOf({ chainId, root, leaves }) {
      const key = root.toLowerCase();
      const out = new Map<string, Hex[]>();
      const claimable = leaves.filter((l) => BigInt(l.amount) > 0n);
      if (!claimable.length) return out;
      const [keccak, top] = await Promise.all([loadKeccak(), topOf(chainId, key)]);
      if (!top) throw new ServiceUnavailableError('reward proofs');
      const hashes = claimable.map((l) => hashLeafBytes(keccak, l.recipient, l.token, BigInt(l.amount)));
      const { rows } = await db.query<{ i: string; chunk: number; hashes: Buffer }>(
        `SELECT h.i, c.chunk, c.hashes FROM unnest($3::bytea[]) WITH ORDINALITY AS h(hash, i)
         CROSS JOIN LATERAL (SELECT chunk, hashes FROM reward_tree_chunks
           WHERE chain_id = $1 AND root = $2 AND first_hash <= h.hash ORDER BY first_hash DESC LIMIT 1) c`,
        [chainId, key, hashes.map((h) => Buffer.from(h))],
      );
      if (rows.length !== claimable.length) {
        // Material pruned or replaced since its top was kept: read the top again before blaming the data.
        tops.delete(`${chainId}:${key}`);
        if (!(await topOf(chainId, key))) throw new ServiceUnavailableError('reward proofs');
        throw new ProofMaterialError(
          `${claimable.length - rows.length} leaves of root ${key} on chain ${chainId} are not in its proof material`,
        );
      }
      for (const row of rows) {
        const i = Number(row.i) - 1;
        const leaf = claimable[i]!;
        const chunk = new Uint8Array(row.hashes);
        const local = indexInChunk(chunk, hashes[i]!);
        if (local < 0)
          throw new ProofMaterialError(
            `leaf ${leaf.recipient}/${leaf.token} of root ${key} on chain ${chainId} is not in its proof material`,
          );
        const proof = proofOfLeaf(keccak, top, chunk, row.chunk * top.chunkLeaves + local);
        out.set(
          rewardTreeKey(leaf.recipient as Hex, leaf.token as Hex),
          proof.map((b) => bytesToHex(b)),
        );
      }
      return out;
    },
  };
}
