import { expect } from 'chai';
import { bytesToHex, zeroHash, type Address } from 'viem';
import { buildRewardTree, hashLeaf, verifyProof } from '../../../domain/rewardTree.js';
import {
  chunkCount,
  chunkRoot,
  decodeTopLayers,
  encodeTopLayers,
  hashLeafBytes,
  nodeAt,
  NODE_BYTES,
  proofOfLeaf,
  sortNodes,
  topOf,
} from '../../../domain/rewardTreeLayout.js';
import { loadKeccak, type Keccak } from '../../../internal/keccak.js';

/** Deterministic pseudo-random leaves (no two alike). */
function leavesOf(n: number, seed: number) {
  let x = seed;
  const next = () => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return x;
  };
  return Array.from({ length: n }, (_, i) => ({
    user: `0x${(i + 1).toString(16).padStart(8, '0')}${next().toString(16).padStart(32, '0')}`.slice(0, 42) as Address,
    token: `0x${'22'.repeat(19)}${(i % 3).toString(16).padStart(2, '0')}` as Address,
    amount: BigInt(next()) * 10n ** 18n + BigInt(i),
  }));
}

/** The layout's root and every proof, built as the roots job and the API do. */
function layoutProofs(keccak: Keccak, leaves: ReturnType<typeof leavesOf>, chunkLeaves: number) {
  const packed = new Uint8Array(leaves.length * NODE_BYTES);
  leaves.forEach((l, i) => packed.set(hashLeafBytes(keccak, l.user, l.token, l.amount), i * NODE_BYTES));
  const sorted = sortNodes(packed);
  const chunks = Array.from({ length: chunkCount(leaves.length, chunkLeaves) }, (_, c) =>
    sorted.subarray(c * chunkLeaves * NODE_BYTES, Math.min(leaves.length, (c + 1) * chunkLeaves) * NODE_BYTES),
  );
  const roots = new Uint8Array(chunks.length * NODE_BYTES);
  chunks.forEach((c, i) => roots.set(chunkRoot(keccak, c), i * NODE_BYTES));
  const top = decodeTopLayers(
    encodeTopLayers(topOf(keccak, roots, leaves.length, chunkLeaves)),
    leaves.length,
    chunkLeaves,
  );
  const proofs = new Map<string, string[]>();
  // Every leaf of small trees; of large ones every 13th and the tail (the promoted nodes).
  for (let i = 0; i < leaves.length; i++) {
    if (leaves.length > 1100 && i % 13 !== 0 && i < leaves.length - 20) continue;
    const c = Math.floor(i / chunkLeaves);
    proofs.set(
      bytesToHex(nodeAt(sorted, i)),
      proofOfLeaf(keccak, top, chunks[c]!, i).map((b) => bytesToHex(b)),
    );
  }
  return { root: bytesToHex(top.root), proofs };
}

describe('domain/rewardTreeLayout: chunked storage layout of reward trees', () => {
  let keccak: Keccak;
  before(async () => {
    keccak = await loadKeccak();
  });

  it('hashes leaves exactly as domain/rewardTree.ts (viem) does', () => {
    for (const l of leavesOf(50, 7))
      expect(bytesToHex(hashLeafBytes(keccak, l.user, l.token, l.amount))).to.equal(hashLeaf(l));
  });

  // Sizes around chunk boundaries and odd layers, with small chunks so the top has several layers.
  for (const [n, chunk] of [
    [1, 4],
    [2, 4],
    [3, 4],
    [4, 4],
    [5, 4],
    [17, 4],
    [63, 8],
    [64, 8],
    [65, 8],
    [1000, 16],
    [1025, 1024],
    [3000, 1024],
  ] as const) {
    it(`gives the same root and proofs as buildRewardTree for ${n} leaves in chunks of ${chunk}`, function () {
      this.timeout(20_000);
      const leaves = leavesOf(n, n * 31 + chunk);
      const reference = buildRewardTree(leaves);
      const layout = layoutProofs(keccak, leaves, chunk);
      expect(layout.root).to.equal(reference.root);
      expect(layout.proofs.size).to.be.greaterThan(Math.min(n, 100) - 1);
      for (const leaf of reference.leaves.filter((l) => layout.proofs.has(l.hash))) {
        const proof = layout.proofs.get(leaf.hash)!;
        expect(proof, `proof of ${leaf.hash}`).to.deep.equal(
          reference.proofs.get(`${leaf.user}-${leaf.token}`.toLowerCase()),
        );
        expect(verifyProof({ leaf: leaf.hash, proof: proof as `0x${string}`[], root: reference.root })).to.equal(true);
      }
    });
  }

  it('refuses chunk sizes that are not powers of two and tops that do not fit their leaf count', () => {
    const roots = new Uint8Array(2 * NODE_BYTES);
    expect(() => topOf(keccak, roots, 8, 3)).to.throw(/power of two/);
    expect(() => topOf(keccak, roots, 100, 4)).to.throw(/chunk roots for 100 leaves/);
    expect(() => decodeTopLayers(new Uint8Array(5 * NODE_BYTES), 8, 4)).to.throw(/does not fit/);
  });

  it('has no tree without a leaf (the empty tree is the zero root, handled by its callers)', () => {
    expect(() => topOf(keccak, new Uint8Array(0), 0, 4)).to.throw(/at least one leaf/);
    expect(buildRewardTree([]).root).to.equal(zeroHash);
  });
});
