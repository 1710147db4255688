import { expect } from 'chai';
import { keccak256, zeroHash } from 'viem';
import type { Address, Hex } from 'viem';
import { buildRewardTree, hashLeaf, RewardTreeError, rewardTreeKey, verifyProof } from '../../../domain/rewardTree.js';

// Vectors from docs/contracts.md#reward-tree.
const token: Address = '0x2222222222222222222222222222222222222222';
const userA: Address = '0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
const userB: Address = '0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';
const userC: Address = '0xcccccccccccccccccccccccccccccccccccccccc';
const leafA: Hex = '0xbb860738bb6be40ab2ff938c10aea888449b79511e1ec900f06f2727f9ae4b14';
const leafB: Hex = '0xeedfbcf697acd5c8b2916e9d32a422d2053f41cd73705ee20d27ab4e73f84c89';
const leafC: Hex = '0xd75c992b1023f5b40cacb244a1c6276076db77e3ebac894eaa41ba9037135151';
const root: Hex = '0x11fdcd9ebf942d9adcbc959f258b9e7d261b064ba41ce68d3c7ecee547d5f85e';
const vectorLeaves = [
  { user: userA, token, amount: 1000n },
  { user: userB, token, amount: 2000n },
  { user: userC, token, amount: 3000n },
];

describe('indexer/rewardTree', () => {
  describe('hashLeaf', () => {
    it('hashes abi.encode(user, token, amount) once (documented vectors)', () => {
      expect(hashLeaf(vectorLeaves[0]!)).to.equal(leafA);
      expect(hashLeaf(vectorLeaves[1]!)).to.equal(leafB);
      expect(hashLeaf(vectorLeaves[2]!)).to.equal(leafC);
    });

    it('does not depend on address case', () => {
      expect(hashLeaf({ user: '0xAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', token, amount: 1000n })).to.equal(leafA);
    });
  });

  describe('buildRewardTree', () => {
    it('reproduces the documented root and both proofs', () => {
      const tree = buildRewardTree(vectorLeaves);
      expect(tree.root).to.equal(root);
      expect(tree.proofs.get(rewardTreeKey(userB, token))).to.deep.equal([
        '0x307c45ab6530d9f3ace51e7595b537a758cd15c2ccd6a42f0ade16bf9c2534b1',
      ]);
      expect(tree.proofs.get(rewardTreeKey(userA, token))).to.deep.equal([leafC, leafB]);
    });

    it('sorts leaves ascending by hash, so input order does not matter', () => {
      const tree = buildRewardTree([...vectorLeaves].reverse());
      expect(tree.root).to.equal(root);
      expect(tree.leaves.map((l) => l.hash)).to.deep.equal([leafA, leafC, leafB]);
    });

    it('keys proofs by lowercased `${user}-${token}`', () => {
      const tree = buildRewardTree([{ user: '0xAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', token, amount: 1n }]);
      expect([...tree.proofs.keys()]).to.deep.equal([`${userA}-${token}`]);
    });

    it('drops zero amounts', () => {
      const tree = buildRewardTree([
        ...vectorLeaves,
        { user: '0xdddddddddddddddddddddddddddddddddddddddd', token, amount: 0n },
      ]);
      expect(tree.root).to.equal(root);
      expect(tree.leaves).to.have.length(3);
      expect(tree.proofs.has(rewardTreeKey('0xdddddddddddddddddddddddddddddddddddddddd', token))).to.equal(false);
    });

    it('uses the leaf itself as root, with an empty proof, for a single leaf', () => {
      const tree = buildRewardTree([vectorLeaves[0]!]);
      expect(tree.root).to.equal(leafA);
      expect(tree.proofs.get(rewardTreeKey(userA, token))).to.deep.equal([]);
      expect(verifyProof({ leaf: leafA, proof: [], root: tree.root })).to.equal(true);
    });

    it('returns the zero root for no (non-zero) leaves', () => {
      expect(buildRewardTree([]).root).to.equal(zeroHash);
      expect(buildRewardTree([{ ...vectorLeaves[0]!, amount: 0n }]).root).to.equal(zeroHash);
    });

    it('promotes an odd node unchanged instead of duplicating it (5 leaves)', () => {
      const leaves = [1, 2, 3, 4, 5].map((i) => ({
        user: `0x${String(i).repeat(40)}` as Address,
        token,
        amount: BigInt(i) * 10n ** 18n,
      }));
      const tree = buildRewardTree(leaves);
      const h = tree.leaves.map((l) => l.hash);
      const pair = (a: Hex, b: Hex): Hex =>
        BigInt(a) < BigInt(b) ? keccak256(`${a}${b.slice(2)}`) : keccak256(`${b}${a.slice(2)}`);
      // Layer 1: (h0,h1), (h2,h3), h4 promoted; layer 2: (p01,p23), h4 promoted; root: (q, h4).
      const expectedRoot = pair(pair(pair(h[0]!, h[1]!), pair(h[2]!, h[3]!)), h[4]!);
      expect(tree.root).to.equal(expectedRoot);
      // The promoted leaf's proof skips the levels where it had no sibling.
      const last = tree.leaves[4]!;
      expect(tree.proofs.get(rewardTreeKey(last.user, last.token))).to.deep.equal([
        pair(pair(h[0]!, h[1]!), pair(h[2]!, h[3]!)),
      ]);
      for (const leaf of tree.leaves) {
        const proof = tree.proofs.get(rewardTreeKey(leaf.user, leaf.token))!;
        expect(verifyProof({ leaf: leaf.hash, proof, root: tree.root })).to.equal(true);
      }
    });

    it('gives a valid proof to every leaf of a larger tree', () => {
      const leaves = Array.from({ length: 37 }, (_, i) => ({
        user: `0x${(i + 1).toString(16).padStart(40, '0')}` as Address,
        token: i % 2 === 0 ? token : ('0x3333333333333333333333333333333333333333' as Address),
        amount: BigInt(i + 1) * 12345n,
      }));
      const tree = buildRewardTree(leaves);
      expect(tree.proofs.size).to.equal(37);
      for (const leaf of tree.leaves) {
        expect(
          verifyProof({
            leaf: leaf.hash,
            proof: tree.proofs.get(rewardTreeKey(leaf.user, leaf.token))!,
            root: tree.root,
          }),
        ).to.equal(true);
      }
    });

    it('rejects a duplicate (user, token) pair', () => {
      expect(() =>
        buildRewardTree([vectorLeaves[0]!, { ...vectorLeaves[0]!, user: userA.toUpperCase() as Address }]),
      ).to.throw(RewardTreeError);
    });
  });

  describe('verifyProof', () => {
    it('accepts the documented proofs and rejects a wrong amount or proof', () => {
      expect(verifyProof({ leaf: leafA, proof: [leafC, leafB], root })).to.equal(true);
      const proofB: Hex[] = ['0x307c45ab6530d9f3ace51e7595b537a758cd15c2ccd6a42f0ade16bf9c2534b1'];
      expect(verifyProof({ leaf: leafB, proof: proofB, root })).to.equal(true);
      expect(
        verifyProof({ leaf: hashLeaf({ user: userA, token, amount: 1001n }), proof: [leafC, leafB], root }),
      ).to.equal(false);
      expect(verifyProof({ leaf: leafA, proof: [leafB, leafC], root })).to.equal(false);
    });
  });
});
