import { expect } from 'chai';
import { encodeFunctionData, parseAbi, zeroHash, type Address } from 'viem';
import { createCampaigns, encodeErc20CampaignData, getLatestTimestamp } from '../../../contracts/actions.js';
import { createHarness, type Harness } from '../../helpers/harness.js';

const TUPLE =
  '(bytes32 campaignId,address creator,address rewardToken,uint256 amount,uint32 campaignType,uint32 startTimestamp,uint32 duration,bytes campaignData)';
const abi = parseAbi([`function createCampaign(${TUPLE} newCampaign) returns (bytes32)`]);
const DEPLOYER: Address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'; // hardhat account #0, the actions' default sender

describe('POST /v4/config/decode/args/createCampaign', function () {
  let h: Harness;
  let tuple: {
    campaignId: `0x${string}`;
    creator: Address;
    rewardToken: Address;
    amount: bigint;
    campaignType: number;
    startTimestamp: number;
    duration: number;
    campaignData: `0x${string}`;
  };
  let onchainId: string;

  before(async function () {
    this.timeout(300_000);
    h = await createHarness({ chainIds: [31337] });
    const { devnet, stack } = h.chains[0]!;
    const now = await getLatestTimestamp({ rpcUrl: devnet.rpcUrl });
    tuple = {
      campaignId: zeroHash,
      creator: DEPLOYER,
      rewardToken: stack.tokens.rewards[0]!.address,
      amount: 500n * 10n ** 18n,
      campaignType: 1,
      startTimestamp: now + 3600,
      duration: 7200,
      campaignData: encodeErc20CampaignData({ targetToken: stack.tokens.targets[0]!.address }),
    };
    const created = await createCampaigns({
      rpcUrl: devnet.rpcUrl,
      chainId: devnet.chainId,
      stack,
      campaigns: [{ ...tuple, creator: DEPLOYER }],
    });
    onchainId = created.campaignIds[0]!.toLowerCase();
  });
  after(async () => h?.close());

  it('decodes calldata into a readable campaign whose campaignId is the one the contract gave it', async () => {
    const calldata = encodeFunctionData({ abi, functionName: 'createCampaign', args: [tuple] });
    const res = await h
      .request()
      .post('/v4/config/decode/args/createCampaign')
      .send({ distributionChainId: '31337', args: calldata })
      .expect(200);
    expect(res.body.distributionChainId).to.equal(31337);
    const [c] = res.body.campaigns;
    expect(c.campaignId).to.equal(onchainId);
    expect(c).to.include({
      campaignType: 1,
      campaignTypeName: 'ERC20',
      amount: (500n * 10n ** 18n).toString(),
      amountFormatted: '500',
      duration: 7200,
      creatorIsZero: false,
      computeChainId: 31337,
    });
    expect(c.rewardToken.address).to.equal(tuple.rewardToken.toLowerCase());
    expect(c.rewardToken.decimals).to.equal(18);
    expect(c.rewardToken.symbol).to.be.a('string').and.not.empty;
    expect(c.campaignDataDecoded.targetToken).to.equal(h.chains[0]!.stack.tokens.targets[0]!.address.toLowerCase());
    expect(new Date(c.endDate).getTime() / 1000).to.equal(tuple.startTimestamp + 7200);
  });

  it('accepts the decoded tuple as an object with string numbers (trailing slash too)', async () => {
    const args = { ...tuple, amount: tuple.amount.toString(), startTimestamp: String(tuple.startTimestamp) };
    const res = await h
      .request()
      .post('/v4/config/decode/args/createCampaign/')
      .send({ distributionChainId: 31337, args })
      .expect(200);
    expect(res.body.campaigns[0].campaignId).to.equal(onchainId);
  });

  it('400s naming distributionChainId for a chain not ours, and the undecodable part of args', async () => {
    const chain = await h
      .request()
      .post('/v4/config/decode/args/createCampaign')
      .send({ distributionChainId: 999, args: { ...tuple, amount: '1' } })
      .expect(400);
    expect(chain.body.errors.map((e: { field: string }) => e.field)).to.deep.equal(['distributionChainId']);
    const data = await h
      .request()
      .post('/v4/config/decode/args/createCampaign')
      .send({ distributionChainId: 31337, args: { ...tuple, amount: '1', campaignData: '0x1234' } })
      .expect(400);
    expect(data.body.errors.map((e: { field: string }) => e.field)).to.deep.equal(['args.campaignData']);
    const missing = await h
      .request()
      .post('/v4/config/decode/args/createCampaign')
      .send({ distributionChainId: 31337 })
      .expect(400);
    expect(missing.body.errors.map((e: { field: string }) => e.field)).to.deep.equal(['args']);
  });
});
