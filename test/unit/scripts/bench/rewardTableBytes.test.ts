import { expect } from 'chai';
import { bytesAdded } from '../../../../scripts/bench/rewardTableBytes.js';

describe('scripts/bench/rewardTableBytes: bytesAdded', () => {
  it('gives each table its growth, a table that appeared counted from zero, and the total', () => {
    const before = new Map([
      ['rewards', 1000],
      ['reward_trees', 100],
    ]);
    const after = new Map([
      ['rewards', 1500],
      ['reward_trees', 100],
      ['reward_leaf_versions', 300],
    ]);
    expect(bytesAdded(before, after)).to.deep.equal({
      total: 800,
      byTable: [
        ['rewards', 500],
        ['reward_trees', 0],
        ['reward_leaf_versions', 300],
      ],
    });
  });
});
