import { expect } from 'chai';
import type { Address } from 'viem';
import { buildRewardTree } from '../../../../domain/rewardTree.js';
import { loadKeccak, type Keccak } from '../../../../internal/keccak.js';
import {
  benchLeaf,
  benchTreeRoot,
  changedLeafCount,
  leavesOfRecipient,
  recipientAddress,
  recipientCount,
  type BenchTreeSpec,
} from '../../../../scripts/bench/benchRewardTree.js';

const TOKENS = [
  '0x1111111111111111111111111111111111111111',
  '0x2222222222222222222222222222222222222222',
  '0x3333333333333333333333333333333333333333',
];

describe('scripts/bench/benchRewardTree', () => {
  let keccak: Keccak;
  before(async () => {
    keccak = await loadKeccak();
  });
  const spec = (leaves: number, changed: boolean): BenchTreeSpec => ({
    chainId: 31337,
    leaves,
    tokens: TOKENS,
    changed,
  });
  const leaves = (s: BenchTreeSpec) =>
    Array.from({ length: s.leaves }, (_, i) => benchLeaf(keccak, s, i, recipientAddress(keccak, Math.floor(i / 2))));

  it('computes the root the Distributor would hold, as an independent tree build does', () => {
    for (const s of [spec(2, false), spec(1025, false), spec(3001, true)]) {
      const tree = buildRewardTree(
        leaves(s).map((l) => ({ user: l.recipient as Address, token: l.token as Address, amount: l.amount })),
      );
      expect(benchTreeRoot(keccak, s)).to.equal(tree.root);
    }
  });

  it('gives each leaf a distinct (recipient, token), breakdowns summing to its amount, and recipients two tokens each', () => {
    const all = leaves(spec(1001, false));
    expect(new Set(all.map((l) => `${l.recipient}-${l.token}`)).size).to.equal(1001);
    expect(new Set(all.map((l) => l.recipient)).size).to.equal(recipientCount(1001));
    for (const l of all) {
      expect(l.breakdowns.length).to.be.within(1, 2);
      expect(l.breakdowns.reduce((s, b) => s + b.amount, 0n)).to.equal(l.amount);
      expect(l.amount > 0n).to.equal(true);
    }
    expect(leavesOfRecipient(1001, 500)).to.deep.equal([1000]);
    expect(leavesOfRecipient(1001, 3)).to.deep.equal([6, 7]);
  });

  it('puts every leaf in one campaign, one breakdown each, when the spec names one campaign (BENCH_REWARDS_CAMPAIGNS=1)', () => {
    const one = leaves({ ...spec(1001, false), campaigns: 1 });
    const many = leaves(spec(1001, false));
    expect(one.every((l) => l.breakdowns.length === 1)).to.equal(true);
    expect(new Set(one.map((l) => l.breakdowns[0]!.campaignId)).size).to.equal(1);
    expect(new Set(many.flatMap((l) => l.breakdowns.map((b) => b.campaignId))).size).to.equal(20);
    for (const l of one) expect(l.breakdowns[0]!.amount).to.equal(l.amount);
  });

  it('raises exactly 1% of the leaves in the changed tree, and nothing else', () => {
    const before = leaves(spec(10_000, false));
    const after = leaves(spec(10_000, true));
    const raised = after.filter((l, i) => l.amount !== before[i]!.amount);
    expect(raised).to.have.length(changedLeafCount(10_000)).and.to.have.length(100);
    after.forEach((l, i) => {
      expect(l.amount >= before[i]!.amount).to.equal(true);
      expect([l.recipient, l.token]).to.deep.equal([before[i]!.recipient, before[i]!.token]);
    });
  });
});
