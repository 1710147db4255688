import { expect } from 'chai';
import { toEventSelector, toFunctionSelector } from 'viem';
import type { Abi, AbiEvent, AbiFunction } from 'viem';
import { distributionCreatorAbi, distributorAbi } from '../../../contracts/artifacts/index.js';

function functionSelectors(abi: Abi): Map<string, string> {
  return new Map(
    abi.filter((i): i is AbiFunction => i.type === 'function').map((f) => [f.name, toFunctionSelector(f)]),
  );
}
function eventTopics(abi: Abi): Map<string, string> {
  return new Map(abi.filter((i): i is AbiEvent => i.type === 'event').map((e) => [e.name, toEventSelector(e)]));
}
function errorSelectors(abi: Abi): Map<string, string> {
  return new Map(
    abi
      .filter((i) => i.type === 'error')
      .map((e) => [e.name, toFunctionSelector({ ...e, type: 'function', outputs: [], stateMutability: 'nonpayable' })]),
  );
}

// Selectors and topics as listed in docs/contracts.md.
describe('contracts/artifacts (stand-in ABI matches the production interface)', () => {
  it('DistributionCreator function selectors', () => {
    const s = functionSelectors(distributionCreatorAbi);
    const expected: Record<string, string> = {
      createCampaign: '0xa63f05ad',
      createCampaigns: '0x4129fe4c',
      acceptConditions: '0x63b87bf0',
      campaignId: '0x48c11a2f',
      campaign: '0x6a8b4a32',
      getLatestCampaignParams: '0x9414de3a',
      campaignLookup: '0x31dc7722',
      campaignList: '0x4912c658',
      campaignOverrides: '0xd4a53680',
      getCampaignOverridesTimestamp: '0xa524e0d3',
      getCampaignListReallocation: '0x18324a33',
      campaignReallocation: '0x10f03068',
      overrideCampaign: '0x3b3c95e4',
      reallocateCampaignRewards: '0x50acf8fc',
      rewardTokenMinAmounts: '0x2acd7ec4',
      setRewardTokenMinAmounts: '0xa2184040',
      getValidRewardTokens: '0x95d3d5d8',
      rewardTokens: '0x7bb7bed1',
      defaultFees: '0x118b48e5',
      setFees: '0x3d18678e',
      campaignSpecificFees: '0x3a2c3e24',
      setCampaignFees: '0xb3333562',
      feeRebate: '0xfeba1ed2',
      setUserFeeRebate: '0x0241d8f9',
      feeRecipient: '0x46904840',
      setFeeRecipient: '0xe74b981b',
      distributor: '0xbfe10928',
      setNewDistributor: '0x03d2944c',
      message: '0xe21f37ce',
      messageHash: '0x30444017',
      setMessage: '0x368b8772',
      userSignatures: '0x96b3ce54',
      userSignatureWhitelist: '0xd7fa5625',
      toggleSigningWhitelist: '0xa2686e23',
      toggleCampaignOperator: '0x3b637e80',
      campaignOperators: '0xce5021db',
      CHAIN_ID: '0x85e1f4d0',
      HOUR: '0xa39dc9be',
      BASE_9: '0x752e8749',
    };
    for (const [name, selector] of Object.entries(expected)) expect(s.get(name), name).to.equal(selector);
  });

  it('DistributionCreator event topics', () => {
    const t = eventTopics(distributionCreatorAbi);
    expect(t.get('NewCampaign')).to.equal('0x6e3c6fa6d4815a856783888c5c3ea2ad7e7303ac0cca66c99f5bd93502c44299');
    expect(t.get('CampaignOverride')).to.equal('0x498dd5714cfae17b608b5c0e95dd223dec5bdd052a793a9e22f3f5d5a20c63d8');
    expect(t.get('CampaignReallocation')).to.equal(
      '0x928665a5f6ab750e819da54fb5814850cf95b40f81a8ad14ab2824ca4b660245',
    );
    expect(t.get('CampaignSpecificFeesSet')).to.equal(
      '0xb718143758782f8d3b9a4c9a0e6e54c43f2790e1e447d639c916a41a71151f5f',
    );
    expect(t.get('RewardTokenMinimumAmountUpdated')).to.equal(
      '0x3a5e6418e38cae10bf66eaf3e68c4e9c6b14df195e24fec169ab3a5b123c96e5',
    );
    expect(t.get('FeesSet')).to.equal('0x3346af6da1932164d501f2ec28f8c5d686db5828a36b77f2da4332d89184fe7b');
    expect(t.get('FeeRebateUpdated')).to.equal('0xab1d37d0b21937f334fc4164d147abbfdbfd7ef37ab9ea0ae73f2a58ffb7f1cc');
    expect(t.get('FeeRecipientUpdated')).to.equal('0x7a7b5a0a132f9e0581eb8527f66eae9ee89c2a3e79d4ac7e41a1f1f4d48a7fc2');
    expect(t.get('DistributorUpdated')).to.equal('0xc0ebb188f905d128bcd7e4282dd1f9cf24cd331b69071002e488349aca6a867b');
    expect(t.get('MessageUpdated')).to.equal('0xde3dc3335dea4d1a1060ef6cefcfcc109eb0a1e78ce151818d3f17a01e1f8a05');
    expect(t.get('ConditionsAccepted')).to.equal('0x6cde60caa7dd2f9278cea1b2964aaf2571f3271703c288320536d04f26295a4e');
    expect(t.get('CampaignOperatorToggled')).to.equal(
      '0xeaa24bda49e9d2b9309266ba5a33e9a01774b2bd5ca8d3e71a4713121612c81b',
    );
  });

  it('CampaignReallocation uses the current layout (only `to` indexed)', () => {
    const event = distributionCreatorAbi.find(
      (i) => i.type === 'event' && i.name === 'CampaignReallocation',
    ) as AbiEvent;
    expect(event.inputs.map((i) => [i.name, i.type, i.indexed])).to.deep.equal([
      ['_campaignId', 'bytes32', false],
      ['from', 'address[]', false],
      ['to', 'address', true],
    ]);
  });

  it('DistributionCreator errors', () => {
    const e = errorSelectors(distributionCreatorAbi);
    const expected: Record<string, string> = {
      CampaignDurationNull: '0x34b6f191',
      CampaignRewardTokenNotWhitelisted: '0xc0460cfb',
      CampaignRewardTooLow: '0x912f27bf',
      CampaignAlreadyExists: '0x7e31d8a3',
      CampaignDoesNotExist: '0x9b35ed3b',
      InvalidOverride: '0x49085953',
      InvalidReallocation: '0x2dfd9c39',
      InvalidLengths: '0x1df89e8b',
      InvalidParam: '0xd2529034',
      ZeroAddress: '0xd92e233d',
      NotGovernor: '0xee3675d4',
      NotSigned: '0xa72952d8',
      OperatorNotAllowed: '0x8a109193',
    };
    for (const [name, selector] of Object.entries(expected)) expect(e.get(name), name).to.equal(selector);
  });

  it('Distributor selectors, topics and errors', () => {
    const s = functionSelectors(distributorAbi);
    const expected: Record<string, string> = {
      claim: '0x71ee95c0',
      updateTree: '0xd9c98087',
      tree: '0xfd54b228',
      lastTree: '0xcce80e7a',
      getMerkleRoot: '0x49590657',
      endOfDisputePeriod: '0x5cec892a',
      disputePeriod: '0x5bf31d4d',
      getEpochDuration: '0x5d3ea8f1',
      setEpochDuration: '0x14c8d37d',
      setDisputePeriod: '0x4641fdef',
      revokeTree: '0x95788835',
      disputer: '0x6ac56103',
      claimed: '0x0c9cbf0e',
      toggleOperator: '0xbdac7ca3',
      operators: '0x2637588e',
    };
    for (const [name, selector] of Object.entries(expected)) expect(s.get(name), name).to.equal(selector);

    const t = eventTopics(distributorAbi);
    expect(t.get('TreeUpdated')).to.equal('0x23aa2e4f757a7bd974085d3e11439a843b137b30905e3ffd51b2097c34aef62e');
    expect(t.get('Claimed')).to.equal('0xf7a40077ff7a04c7e61f6f26fb13774259ddf1b6bce9ecf26a8276cdd3992683');
    expect(t.get('Revoked')).to.equal('0x44825a4b2df8acb19ce4e1afba9aa850c8b65cdb7942e2078f27d0b0960efee6');
    expect(t.get('DisputePeriodUpdated')).to.equal(
      '0xfdf22e84af74bd4ab6b9646f6370a02bc886ed6ac25882db14e4ebf4b8e3bc7e',
    );
    expect(t.get('EpochDurationUpdated')).to.equal(
      '0x83b318614a148a5806087ebf98a15a44e2a3fd3f57b829f39f4396c53c6b8cc3',
    );
    expect(t.get('OperatorToggled')).to.equal('0x42343f44c66ea1eaffa334760d3da2cb731d2a0b3b3e30423df997faa36cc95c');

    const e = errorSelectors(distributorAbi);
    expect(e.get('InvalidProof')).to.equal('0x09bde339');
    expect(e.get('InvalidLengths')).to.equal('0x1df89e8b');
    expect(e.get('InvalidUninitializedRoot')).to.equal('0x094ad658');
    expect(e.get('NotGovernor')).to.equal('0xee3675d4');
    expect(e.get('NotWhitelisted')).to.equal('0x584a7938');
  });

  it('claimed() returns (uint208 amount, uint48 timestamp, bytes32 merkleRoot)', () => {
    const fn = distributorAbi.find((i) => i.type === 'function' && i.name === 'claimed') as AbiFunction;
    expect(fn.outputs.map((o) => [o.name, o.type])).to.deep.equal([
      ['amount', 'uint208'],
      ['timestamp', 'uint48'],
      ['merkleRoot', 'bytes32'],
    ]);
  });
});
