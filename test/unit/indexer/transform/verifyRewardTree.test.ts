import { expect } from 'chai';
import type { RewardTreeFile } from '../../../../indexer/decode/parseRewardTree.js';
import { verifyRewardTree as verify } from '../../../../indexer/transform/verifyRewardTree.js';
import { loadKeccak, type Keccak } from '../../../../internal/keccak.js';

let keccak: Keccak;
before(async () => {
  keccak = await loadKeccak();
});
/** The verdict without its layout (domain/rewardTreeLayout.test.ts checks layouts). */
const verifyRewardTree = (tree: RewardTreeFile, root: string) => {
  const { layout: _, ...verdict } = verify(keccak, tree, root);
  return verdict;
};

// Vectors of docs/contracts.md#reward-tree.
const ROOT = '0x11fdcd9ebf942d9adcbc959f258b9e7d261b064ba41ce68d3c7ecee547d5f85e';
const TOKEN = '0x2222222222222222222222222222222222222222';
const CAMPAIGN_1 = '0x0000000000000000000000000000000000000000000000000000000000000001';
const CAMPAIGN_2 = '0x0000000000000000000000000000000000000000000000000000000000000002';

/** The vector tree: users 0xaaaa…/0xbbbb…/0xcccc… with 1000/2000/3000, split over two campaigns. */
function vectorTree(): RewardTreeFile {
  const entry = (user: string, amount: number) => ({
    recipient: `0x${user.repeat(40)}` as `0x${string}`,
    token: TOKEN as `0x${string}`,
    amount: String(amount),
    breakdowns: [
      { campaignId: CAMPAIGN_1, reason: 'holder', amount: String(amount / 4) },
      { campaignId: CAMPAIGN_2, reason: 'lp', amount: String((amount * 3) / 4) },
    ],
  });
  return { root: ROOT, chainId: 1, rewards: [entry('a', 1000), entry('b', 2000), entry('c', 3000)] };
}

describe('indexer/transform/verifyRewardTree', () => {
  it('accepts the documented vector tree against its root 0x11fdcd9e…', () => {
    expect(verifyRewardTree(vectorTree(), ROOT)).to.deep.equal({
      ok: true,
      computedRoot: ROOT,
      leaves: 3,
      failed: [],
      errors: [],
    });
  });

  it('compares roots whatever their case', () => {
    expect(verifyRewardTree(vectorTree(), ROOT.toUpperCase().replace('0X', '0x')).ok).to.equal(true);
  });

  it('reports a root mismatch when an amount is tampered with (breakdowns tampered consistently)', () => {
    const tree = vectorTree();
    tree.rewards[1]!.amount = '2001';
    tree.rewards[1]!.breakdowns[1]!.amount = '1501';
    const result = verifyRewardTree(tree, ROOT);
    expect(result.ok).to.equal(false);
    expect(result.failed).to.deep.equal(['root']);
    expect(result.computedRoot)
      .to.match(/^0x[0-9a-f]{64}$/)
      .and.not.equal(ROOT);
    expect(result.leaves).to.equal(3);
    expect(result.errors).to.deep.equal([`computed root ${result.computedRoot} differs from on-chain root ${ROOT}`]);
  });

  it('reports a root mismatch against another on-chain root', () => {
    const other = `0x${'ab'.repeat(32)}`;
    expect(verifyRewardTree(vectorTree(), other).failed).to.deep.equal(['root']);
  });

  it('reports a breakdown mismatch when breakdowns do not sum to the amount, even with the right root', () => {
    const tree = vectorTree();
    tree.rewards[2]!.breakdowns[0]!.amount = '749';
    const result = verifyRewardTree(tree, ROOT);
    expect(result.ok).to.equal(false);
    expect(result.computedRoot).to.equal(ROOT);
    expect(result.failed).to.deep.equal(['breakdowns']);
    expect(result.errors).to.deep.equal([
      `breakdowns do not sum to the amount for 1 entry: 0x${'c'.repeat(40)}/${TOKEN}`,
    ]);
  });

  it('reports an entry with no breakdowns as a breakdown mismatch', () => {
    const tree = vectorTree();
    tree.rewards[0]!.breakdowns = [];
    expect(verifyRewardTree(tree, ROOT).failed).to.deep.equal(['breakdowns']);
  });

  it('reports a repeated (campaignId, reason) breakdown as a breakdown mismatch', () => {
    const tree = vectorTree();
    tree.rewards[0]!.breakdowns = [
      { campaignId: CAMPAIGN_1, reason: 'holder', amount: '500' },
      { campaignId: CAMPAIGN_1, reason: 'holder', amount: '500' },
    ];
    const result = verifyRewardTree(tree, ROOT);
    expect(result.failed).to.deep.equal(['breakdowns']);
    expect(result.errors[0]).to.match(/repeat a \(campaignId, reason\) pair for 1 entry/);
  });

  it('records both failed checks when the root and a breakdown are wrong', () => {
    const tree = vectorTree();
    tree.rewards[0]!.amount = '999';
    const result = verifyRewardTree(tree, ROOT);
    expect(result.failed).to.deep.equal(['root', 'breakdowns']);
    expect(result.errors).to.have.length(2);
  });

  it('reports a duplicate (recipient, token) entry as a leaves failure with no computed root', () => {
    const tree = vectorTree();
    tree.rewards.push({ ...tree.rewards[0]!, recipient: tree.rewards[0]!.recipient });
    const result = verifyRewardTree(tree, ROOT);
    expect(result).to.deep.include({ ok: false, computedRoot: null, leaves: 0 });
    expect(result.failed).to.deep.equal(['leaves']);
    expect(result.errors[0]).to.match(/duplicate leaf/);
  });

  it('verifies an empty tree against the zero root only', () => {
    const empty: RewardTreeFile = { root: `0x${'0'.repeat(64)}`, chainId: 1, rewards: [] };
    expect(verifyRewardTree(empty, `0x${'0'.repeat(64)}`).ok).to.equal(true);
    expect(verifyRewardTree(empty, ROOT).failed).to.deep.equal(['root']);
  });
});
