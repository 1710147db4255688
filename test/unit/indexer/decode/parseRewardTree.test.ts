import { expect } from 'chai';
import {
  parseRewardTree,
  parseRewardTreeJson,
  RewardTreeFormatError,
} from '../../../../indexer/decode/parseRewardTree.js';

const ROOT = '0x11fdcd9ebf942d9adcbc959f258b9e7d261b064ba41ce68d3c7ecee547d5f85e';
const CAMPAIGN = '0xecd3fdd97eedc6d320ad104a4a4a7a114022665f3251ccf12fa125b191c20cc1';

const valid = () => ({
  root: ROOT.toUpperCase().replace('0X', '0x'),
  chainId: 31337,
  rewards: [
    {
      recipient: '0xAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      token: '0x2222222222222222222222222222222222222222',
      amount: '1000',
      breakdowns: [{ campaignId: CAMPAIGN, reason: 'holder', amount: '1000' }],
    },
  ],
});

function expectFormatError(document: unknown, field: RegExp): void {
  let thrown: unknown;
  try {
    parseRewardTree(document);
  } catch (error) {
    thrown = error;
  }
  expect(thrown).to.be.instanceOf(RewardTreeFormatError);
  expect((thrown as Error).message).to.match(field);
}

describe('indexer/decode/parseRewardTree', () => {
  it('accepts a tree and lower-cases its root and addresses, keeping amounts as given', () => {
    expect(parseRewardTree(valid())).to.deep.equal({
      root: ROOT,
      chainId: 31337,
      rewards: [
        {
          recipient: '0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
          token: '0x2222222222222222222222222222222222222222',
          amount: '1000',
          breakdowns: [{ campaignId: CAMPAIGN, reason: 'holder', amount: '1000' }],
        },
      ],
    });
  });

  it('accepts an empty reward list and an empty reason, and ignores unknown fields', () => {
    expect(parseRewardTree({ ...valid(), rewards: [], generatedAt: 1 })).to.deep.equal({
      root: ROOT,
      chainId: 31337,
      rewards: [],
    });
    const tree = valid();
    tree.rewards[0]!.breakdowns[0]!.reason = '';
    expect(parseRewardTree(tree).rewards[0]!.breakdowns[0]!.reason).to.equal('');
  });

  it('accepts a uint256-sized amount (78 digits)', () => {
    const tree = valid();
    const max = (2n ** 256n - 1n).toString();
    tree.rewards[0]!.amount = max;
    tree.rewards[0]!.breakdowns[0]!.amount = max;
    expect(parseRewardTree(tree).rewards[0]!.amount).to.equal(max);
  });

  it('refuses a missing root, naming it', () => {
    const { root: _root, ...rest } = valid();
    expectFormatError(rest, /\/root/);
  });

  it('refuses a root that is not 32 bytes of hex', () => {
    expectFormatError({ ...valid(), root: '0x1234' }, /\/root/);
  });

  it('refuses a non-integer chain id', () => {
    expectFormatError({ ...valid(), chainId: '31337' }, /\/chainId/);
  });

  it('refuses a bad recipient address', () => {
    const tree = valid();
    tree.rewards[0]!.recipient = '0xnothex';
    expectFormatError(tree, /\/rewards\/0\/recipient/);
  });

  for (const amount of ['-1', '1.5', '1e18', '', '01', ' 1']) {
    it(`refuses the amount ${JSON.stringify(amount)} (decimal string of a non-negative integer only)`, () => {
      const tree = valid();
      tree.rewards[0]!.amount = amount;
      expectFormatError(tree, /\/rewards\/0\/amount/);
    });
  }

  it('refuses an amount given as a number', () => {
    const tree = valid() as unknown as { rewards: { amount: unknown }[] };
    tree.rewards[0]!.amount = 1000;
    expectFormatError(tree, /\/rewards\/0\/amount/);
  });

  it('refuses an entry without breakdowns, naming the field', () => {
    const tree = valid() as unknown as { rewards: Record<string, unknown>[] };
    delete tree.rewards[0]!['breakdowns'];
    expectFormatError(tree, /\/rewards\/0\/breakdowns/);
  });

  it('refuses a breakdown without a campaign id', () => {
    const tree = valid() as unknown as { rewards: { breakdowns: Record<string, unknown>[] }[] };
    delete tree.rewards[0]!.breakdowns[0]!['campaignId'];
    expectFormatError(tree, /\/rewards\/0\/breakdowns\/0\/campaignId/);
  });

  describe('parseRewardTreeJson', () => {
    it('parses JSON text', () => {
      expect(parseRewardTreeJson(JSON.stringify(valid())).root).to.equal(ROOT);
    });

    it('refuses text that is not JSON with a RewardTreeFormatError', () => {
      expect(() => parseRewardTreeJson('{"root": ')).to.throw(RewardTreeFormatError, /not JSON/);
    });
  });
});
