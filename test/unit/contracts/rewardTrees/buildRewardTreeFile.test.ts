import { expect } from 'chai';
import { buildRewardTreeFile } from '../../../../contracts/rewardTrees/buildRewardTreeFile.js';
import { parseRewardTree } from '../../../../indexer/decode/parseRewardTree.js';
import { verifyRewardTree } from '../../../../indexer/transform/verifyRewardTree.js';
import { loadKeccak } from '../../../../internal/keccak.js';

describe('contracts/rewardTrees/buildRewardTreeFile', () => {
  it('sums breakdowns per entry and computes the documented root, giving a valid, verifiable document', async () => {
    const token = '0x2222222222222222222222222222222222222222';
    const tree = buildRewardTreeFile({
      chainId: 1,
      rewards: [
        {
          recipient: '0xAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
          token,
          breakdowns: [
            { campaignId: '0x01', reason: '', amount: 600n },
            { campaignId: '0x02', reason: '', amount: 400n },
          ],
        },
        { recipient: `0x${'b'.repeat(40)}`, token, breakdowns: [{ campaignId: '0x01', reason: '', amount: 2000n }] },
        { recipient: `0x${'c'.repeat(40)}`, token, breakdowns: [{ campaignId: '0x02', reason: '', amount: 3000n }] },
      ],
    });
    expect(tree.root).to.equal('0x11fdcd9ebf942d9adcbc959f258b9e7d261b064ba41ce68d3c7ecee547d5f85e');
    expect(tree.rewards.map((r) => [r.recipient, r.amount])).to.deep.equal([
      [`0x${'a'.repeat(40)}`, '1000'],
      [`0x${'b'.repeat(40)}`, '2000'],
      [`0x${'c'.repeat(40)}`, '3000'],
    ]);
    expect(parseRewardTree(JSON.parse(JSON.stringify(tree)))).to.deep.equal(tree);
    expect(verifyRewardTree(await loadKeccak(), tree, tree.root).ok).to.equal(true);
  });
});
