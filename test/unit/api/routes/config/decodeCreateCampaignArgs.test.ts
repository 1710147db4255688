import { expect } from 'chai';
import { encodeFunctionData, parseAbi, toFunctionSelector, zeroHash, type Hex } from 'viem';
import {
  CREATE_CAMPAIGN_SELECTOR,
  CREATE_CAMPAIGNS_SELECTOR,
  DecodeArgsError,
  decodeCreateCampaignArgs,
} from '../../../../../api/routes/config/decodeCreateCampaignArgs.js';
import { describeCampaign } from '../../../../../api/routes/config/describeCampaign.js';
import { encodeErc20CampaignData } from '../../../../../contracts/campaignData.js';

const TUPLE =
  '(bytes32 campaignId,address creator,address rewardToken,uint256 amount,uint32 campaignType,uint32 startTimestamp,uint32 duration,bytes campaignData)';
const abi = parseAbi([
  `function createCampaign(${TUPLE} newCampaign) returns (bytes32)`,
  `function createCampaigns(${TUPLE}[] campaigns) returns (bytes32[])`,
]);
const data = encodeErc20CampaignData({ targetToken: '0x3333333333333333333333333333333333333333' });
const tuple = {
  campaignId: zeroHash,
  creator: '0x1111111111111111111111111111111111111111',
  rewardToken: '0x2222222222222222222222222222222222222222',
  amount: 10n ** 21n,
  campaignType: 1,
  startTimestamp: 1_700_000_000,
  duration: 86_400,
  campaignData: data,
} as const;
const token = { address: tuple.rewardToken, symbol: 'RWD', name: 'Reward', decimals: 18 };
const fieldsOf = (fn: () => unknown): string[] => {
  try {
    fn();
  } catch (error) {
    if (error instanceof DecodeArgsError) return error.errors.map((e) => e.field);
    throw error;
  }
  return [];
};

describe('decodeCreateCampaignArgs', () => {
  it('uses the documented selectors', () => {
    expect(toFunctionSelector(abi[0])).to.equal(CREATE_CAMPAIGN_SELECTOR).and.equal('0xa63f05ad');
    expect(toFunctionSelector(abi[1])).to.equal(CREATE_CAMPAIGNS_SELECTOR).and.equal('0x4129fe4c');
  });

  it('decodes createCampaign and createCampaigns calldata, and the bare encoded struct', () => {
    const one = encodeFunctionData({ abi, functionName: 'createCampaign', args: [tuple] });
    expect(decodeCreateCampaignArgs(one)).to.deep.equal([tuple]);
    const two = encodeFunctionData({
      abi,
      functionName: 'createCampaigns',
      args: [[tuple, { ...tuple, duration: 3600 }]],
    });
    expect(decodeCreateCampaignArgs(two).map((t) => t.duration)).to.deep.equal([86_400, 3600]);
    expect(decodeCreateCampaignArgs(`0x${one.slice(10)}` as Hex)).to.deep.equal([tuple]);
  });

  it('accepts the tuple as an array in struct order or an object, numbers as strings', () => {
    const asArray = [
      zeroHash,
      tuple.creator,
      tuple.rewardToken,
      '1000000000000000000000',
      '1',
      '1700000000',
      86400,
      data,
    ];
    expect(decodeCreateCampaignArgs(asArray)).to.deep.equal([tuple]);
    expect(decodeCreateCampaignArgs({ ...tuple, amount: tuple.amount.toString(), campaignType: '1' })).to.deep.equal([
      tuple,
    ]);
    expect(
      decodeCreateCampaignArgs(JSON.stringify({ newCampaign: { ...tuple, amount: '1000000000000000000000' } })),
    ).to.deep.equal([tuple]);
    expect(decodeCreateCampaignArgs([asArray, asArray])).to.have.length(2);
  });

  it('names what could not be decoded', () => {
    expect(fieldsOf(() => decodeCreateCampaignArgs('0xa63f05ad1234'))).to.deep.equal(['args']);
    expect(fieldsOf(() => decodeCreateCampaignArgs(42))).to.deep.equal(['args']);
    expect(fieldsOf(() => decodeCreateCampaignArgs({ ...tuple, amount: '-1', campaignData: 'zz' }))).to.deep.equal([
      'args.amount',
      'args.campaignData',
    ]);
    expect(fieldsOf(() => decodeCreateCampaignArgs([{ ...tuple }, { ...tuple, creator: '0x12' }]))).to.deep.equal([
      'args.1.creator',
    ]);
  });
});

describe('describeCampaign', () => {
  it('predicts the documented campaignId vectors (chain 1 and 31337)', () => {
    expect(describeCampaign(tuple, 1, token).campaign.campaignId).to.equal(
      '0x333b5fc48513d5a8c20cd3dc29bcdb344da473474fac39a5d3799eff7f8b4163',
    );
    expect(describeCampaign(tuple, 31337, token).campaign.campaignId).to.equal(
      '0xecd3fdd97eedc6d320ad104a4a4a7a114022665f3251ccf12fa125b191c20cc1',
    );
    expect(describeCampaign({ ...tuple, campaignData: '0x' }, 1, token).campaign.campaignId).to.equal(
      '0xdc1e03029cf3185fdc740f108b7288f9392b39b30e3105ae2547112693a91da7',
    );
  });

  it('formats amount, dates and the decoded data, and flags a zero creator', () => {
    const { campaign, decodeError } = describeCampaign(tuple, 1, token);
    expect(decodeError).to.equal(undefined);
    expect(campaign).to.include({
      amountFormatted: '1000',
      campaignTypeName: 'ERC20',
      startDate: '2023-11-14T22:13:20.000Z',
      endTimestamp: 1_700_086_400,
      computeChainId: 1,
      creatorIsZero: false,
      mainParameter: '0x3333333333333333333333333333333333333333',
    });
    expect(
      describeCampaign({ ...tuple, creator: '0x0000000000000000000000000000000000000000' }, 1, token).campaign
        .creatorIsZero,
    ).to.equal(true);
  });

  it('reports campaignData that does not match its type layout', () => {
    expect(describeCampaign({ ...tuple, campaignData: '0x1234' }, 1, token).decodeError).to.be.a('string');
  });
});
