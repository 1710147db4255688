import { expect } from 'chai';
import { parseEventLogs, parseUnits, zeroAddress, zeroHash } from 'viem';
import type { Address, Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import {
  computeCampaignId,
  createCampaigns,
  encodeClammCampaignData,
  encodeErc20CampaignData,
  getLatestTimestamp,
  mine,
  overrideCampaign,
  reallocateCampaignRewards,
} from '../../../contracts/actions.js';
import type { CampaignInput } from '../../../contracts/actions.js';
import { distributionCreatorAbi, testErc20Abi } from '../../../contracts/artifacts/index.js';
import { HARDHAT_TEST_KEYS, createDevnetClients } from '../../../contracts/clients.js';
import type { DevnetClients } from '../../../contracts/clients.js';
import { deployStack } from '../../../contracts/deploy.js';
import type { DeployedStack } from '../../../contracts/deploy.js';
import { startDevnetOnFreePort } from '../../../contracts/devnet.js';
import type { Devnet } from '../../../contracts/devnet.js';
import { expectRevert } from './expectRevert.js';

const CHAIN_ID = 31337;
const NEW_CAMPAIGN_TOPIC = '0x6e3c6fa6d4815a856783888c5c3ea2ad7e7303ac0cca66c99f5bd93502c44299';
const REALLOCATION_TOPIC = '0x928665a5f6ab750e819da54fb5814850cf95b40f81a8ad14ab2824ca4b660245';
const alice = privateKeyToAccount(HARDHAT_TEST_KEYS[0]);
const bob = privateKeyToAccount(HARDHAT_TEST_KEYS[1]);

describe('contracts/DistributionCreator on a devnet', function () {
  this.timeout(60_000);
  let devnet: Devnet;
  let stack: DeployedStack;
  let clients: DevnetClients;
  let target: { rpcUrl: string; chainId: number; stack: DeployedStack };
  let rwd: Address;
  let usdc: Address;
  let pts: Address;

  const balanceOf = (token: Address, owner: Address) =>
    clients.publicClient.readContract({ address: token, abi: testErc20Abi, functionName: 'balanceOf', args: [owner] });
  const abi = distributionCreatorAbi;
  const getCampaign = (id: Hex) =>
    clients.publicClient.readContract({
      address: stack.distributionCreator,
      abi,
      functionName: 'campaign',
      args: [id],
    });
  const getLatestParams = (id: Hex) =>
    clients.publicClient.readContract({
      address: stack.distributionCreator,
      abi,
      functionName: 'getLatestCampaignParams',
      args: [id],
    });
  const campaignCount = () =>
    clients.publicClient.readContract({ address: stack.distributionCreator, abi, functionName: 'campaignListLength' });
  /** A campaign starting in an hour, 1 day long, on the first target token. */
  async function erc20Campaign(overrides: Partial<CampaignInput> = {}): Promise<CampaignInput> {
    return {
      rewardToken: rwd,
      amount: parseUnits('1000', 18),
      campaignType: 1,
      startTimestamp: (await getLatestTimestamp(devnet)) + 3600,
      duration: 86_400,
      campaignData: encodeErc20CampaignData({ targetToken: stack.tokens.targets[0]!.address }),
      ...overrides,
    };
  }

  before(async () => {
    const started = Date.now();
    devnet = await startDevnetOnFreePort({ chainId: CHAIN_ID });
    const up = Date.now();
    stack = await deployStack({ rpcUrl: devnet.rpcUrl, chainId: CHAIN_ID });
    console.log(`      devnet up in ${up - started} ms, stack deployed in ${Date.now() - up} ms`);
    clients = createDevnetClients({ rpcUrl: devnet.rpcUrl, chainId: CHAIN_ID });
    target = { rpcUrl: devnet.rpcUrl, chainId: CHAIN_ID, stack };
    [rwd, usdc, pts] = stack.tokens.rewards.map((r) => r.address) as [Address, Address, Address];
  });

  after(async () => {
    await devnet?.stop();
  });

  it('is deployed with the whitelist, fees and constants of the stack', async () => {
    const read = (functionName: 'defaultFees' | 'BASE_9' | 'HOUR' | 'CHAIN_ID' | 'distributor') =>
      clients.publicClient.readContract({
        address: stack.distributionCreator,
        abi: distributionCreatorAbi,
        functionName,
      });
    expect(await read('defaultFees')).to.equal(30_000_000n);
    expect(await read('BASE_9')).to.equal(10n ** 9n);
    expect(await read('HOUR')).to.equal(3600);
    expect(await read('CHAIN_ID')).to.equal(BigInt(CHAIN_ID));
    expect(await read('distributor')).to.equal(stack.distributor);
    const valid = await clients.publicClient.readContract({
      address: stack.distributionCreator,
      abi: distributionCreatorAbi,
      functionName: 'getValidRewardTokens',
    });
    expect(valid.map((v) => [v.token, v.minimumAmountPerEpoch])).to.deep.equal(
      stack.tokens.rewards.map((r) => [r.address, r.minAmountPerHour]),
    );
    const events = await clients.publicClient.getContractEvents({
      address: stack.distributionCreator,
      abi: distributionCreatorAbi,
      eventName: 'RewardTokenMinimumAmountUpdated',
      fromBlock: stack.deployBlock,
    });
    expect(events.map((e) => [e.args.token, e.args.amount])).to.deep.equal([
      [rwd, 10n ** 15n],
      [usdc, 1000n],
      [pts, 10n ** 15n],
    ]);
  });

  it('creates a campaign whose id matches computeCampaignId and the campaignId view, emitting the net amount', async () => {
    const input = await erc20Campaign();
    const before = {
      sender: await balanceOf(rwd, stack.deployer),
      distributor: await balanceOf(rwd, stack.distributor),
      creatorContract: await balanceOf(rwd, stack.distributionCreator),
    };
    const result = await createCampaigns({ ...target, campaigns: [input] });

    const net = (input.amount * 97n) / 100n;
    const expectedId = computeCampaignId({ chainId: CHAIN_ID, creator: stack.deployer, ...input });
    const viewId = await clients.publicClient.readContract({
      address: stack.distributionCreator,
      abi: distributionCreatorAbi,
      functionName: 'campaignId',
      args: [{ campaignId: zeroHash, creator: stack.deployer, ...input }],
    });
    expect(result.campaignIds).to.deep.equal([expectedId]);
    expect(viewId).to.equal(expectedId);
    const [emitted] = result.campaigns;
    expect(emitted).to.deep.equal({ campaignId: expectedId, creator: stack.deployer, ...input, amount: net });

    // Zero creator was replaced by msg.sender; funds: net to the distributor, fee kept (no feeRecipient).
    expect(await balanceOf(rwd, stack.deployer)).to.equal(before.sender - input.amount);
    expect(await balanceOf(rwd, stack.distributor)).to.equal(before.distributor + net);
    expect(await balanceOf(rwd, stack.distributionCreator)).to.equal(before.creatorContract + input.amount - net);

    const stored = await getCampaign(expectedId);
    expect(stored).to.deep.equal(emitted);
    const receipt = await clients.publicClient.getTransactionReceipt({ hash: result.txHash });
    const log = receipt.logs.find((l) => l.address.toLowerCase() === stack.distributionCreator.toLowerCase());
    expect(log?.topics).to.deep.equal([NEW_CAMPAIGN_TOPIC]);
  });

  it('creates several campaigns in one createCampaigns transaction, in input order', async () => {
    const countBefore = await campaignCount();
    const start = (await getLatestTimestamp(devnet)) + 7200;
    const campaigns: CampaignInput[] = [
      await erc20Campaign({ rewardToken: usdc, amount: parseUnits('5000', 6), startTimestamp: start }),
      await erc20Campaign({ rewardToken: pts, amount: parseUnits('100000', 18), startTimestamp: start }),
      {
        rewardToken: rwd,
        amount: parseUnits('250', 18),
        campaignType: 2,
        startTimestamp: start,
        duration: 7 * 86_400,
        campaignData: encodeClammCampaignData({
          pool: stack.tokens.targets[1]!.address,
          weightFees: 2000,
          weightToken0: 4000,
          weightToken1: 4000,
          isOutOfRangeIncentivized: false,
        }),
      },
    ];
    const result = await createCampaigns({ ...target, campaigns });
    expect(result.campaignIds).to.deep.equal(
      campaigns.map((c) => computeCampaignId({ chainId: CHAIN_ID, creator: stack.deployer, ...c })),
    );
    expect(result.campaigns.map((c) => c.amount)).to.deep.equal(campaigns.map((c) => (c.amount * 97n) / 100n));
    expect(await campaignCount()).to.equal(countBefore + 3n);
  });

  it('hashes an explicit creator that differs from the sender', async () => {
    const input = await erc20Campaign({ creator: alice.address });
    const result = await createCampaigns({ ...target, campaigns: [input] });
    expect(result.campaigns[0]!.creator).to.equal(alice.address);
    expect(result.campaignIds[0]).to.equal(computeCampaignId({ chainId: CHAIN_ID, ...input, creator: alice.address }));
    expect(result.campaignIds[0]).to.not.equal(
      computeCampaignId({ chainId: CHAIN_ID, ...input, creator: stack.deployer }),
    );
  });

  it('reverts CampaignAlreadyExists on a duplicate, even with another amount', async () => {
    const input = await erc20Campaign();
    await createCampaigns({ ...target, campaigns: [input] });
    await expectRevert(
      createCampaigns({ ...target, campaigns: [{ ...input, amount: input.amount * 2n }] }),
      'CampaignAlreadyExists',
    );
    // Shifting the start by one second gives a new id (docs/contracts.md#campaign-id).
    await createCampaigns({ ...target, campaigns: [{ ...input, startTimestamp: input.startTimestamp + 1 }] });
  });

  it('checks the per-hour minimum on the gross amount (amount*3600 >= min*duration)', async () => {
    // RWD minimum is 1e15 per hour, so one day needs 24e15 gross (the 3% fee does not count).
    const minimum = 24n * 10n ** 15n;
    await expectRevert(
      createCampaigns({ ...target, campaigns: [await erc20Campaign({ amount: minimum - 1n })] }),
      'CampaignRewardTooLow',
    );
    const ok = await createCampaigns({ ...target, campaigns: [await erc20Campaign({ amount: minimum })] });
    expect(ok.campaigns[0]!.amount).to.equal((minimum * 97n) / 100n);
  });

  it('reverts CampaignRewardTokenNotWhitelisted and CampaignDurationNull', async () => {
    await expectRevert(
      createCampaigns({
        ...target,
        campaigns: [await erc20Campaign({ rewardToken: stack.tokens.targets[0]!.address })],
      }),
      'CampaignRewardTokenNotWhitelisted',
    );
    await expectRevert(
      createCampaigns({ ...target, campaigns: [await erc20Campaign({ duration: 0 })] }),
      'CampaignDurationNull',
    );
  });

  it('waives the fee for a campaign type whose specific fee is 1, and is governed by the owner', async () => {
    const { walletClient, publicClient } = clients;
    const setTypeFee = async (fee: bigint) =>
      publicClient.waitForTransactionReceipt({
        hash: await walletClient.writeContract({
          address: stack.distributionCreator,
          abi: distributionCreatorAbi,
          functionName: 'setCampaignFees',
          args: [4, fee],
        }),
      });
    await setTypeFee(1n);
    const input = await erc20Campaign({ campaignType: 4, campaignData: '0x1234' });
    const result = await createCampaigns({ ...target, campaigns: [input] });
    expect(result.campaigns[0]!.amount).to.equal(input.amount);
    await setTypeFee(10_000_000n); // 1%
    const onePercent = await createCampaigns({
      ...target,
      campaigns: [{ ...input, startTimestamp: input.startTimestamp + 1 }],
    });
    expect(onePercent.campaigns[0]!.amount).to.equal((input.amount * 99n) / 100n);

    const asAlice = createDevnetClients({ ...target, privateKey: HARDHAT_TEST_KEYS[0] });
    await expectRevert(
      asAlice.publicClient.simulateContract({
        account: asAlice.account,
        address: stack.distributionCreator,
        abi: distributionCreatorAbi,
        functionName: 'setFees',
        args: [0n],
      }),
      'NotGovernor',
    );
    await expectRevert(
      publicClient.simulateContract({
        account: clients.account,
        address: stack.distributionCreator,
        abi: distributionCreatorAbi,
        functionName: 'setRewardTokenMinAmounts',
        args: [[rwd, usdc], [1n]],
      }),
      'InvalidLengths',
    );
  });

  it('sends the fee to feeRecipient when one is set', async () => {
    const { walletClient, publicClient } = clients;
    const setRecipient = async (recipient: Address) =>
      publicClient.waitForTransactionReceipt({
        hash: await walletClient.writeContract({
          address: stack.distributionCreator,
          abi: distributionCreatorAbi,
          functionName: 'setFeeRecipient',
          args: [recipient],
        }),
      });
    await setRecipient(bob.address);
    const input = await erc20Campaign({
      rewardToken: usdc,
      amount: parseUnits('1000', 6),
      startTimestamp: (await getLatestTimestamp(devnet)) + 999,
    });
    const before = { bob: await balanceOf(usdc, bob.address), kept: await balanceOf(usdc, stack.distributionCreator) };
    await createCampaigns({ ...target, campaigns: [input] });
    expect(await balanceOf(usdc, bob.address)).to.equal(before.bob + parseUnits('30', 6));
    expect(await balanceOf(usdc, stack.distributionCreator)).to.equal(before.kept);
    await setRecipient(zeroAddress);
  });

  it('overrides a campaign: CampaignOverride keeps creator, token and amount; only creator or operators may', async () => {
    const input = await erc20Campaign({ creator: alice.address });
    const {
      campaignIds: [id],
      campaigns: [created],
    } = await createCampaigns({ ...target, campaigns: [input] });
    const newData = encodeErc20CampaignData({
      targetToken: stack.tokens.targets[1]!.address,
      url: 'https://example.org',
    });
    const change = {
      campaignType: 1,
      startTimestamp: input.startTimestamp + 600,
      duration: 2 * 86_400,
      campaignData: newData,
    };

    await expectRevert(
      overrideCampaign({ ...target, privateKey: HARDHAT_TEST_KEYS[1], campaignId: id!, campaign: change }),
      'OperatorNotAllowed',
    );
    const result = await overrideCampaign({
      ...target,
      privateKey: HARDHAT_TEST_KEYS[0],
      campaignId: id!,
      campaign: change,
    });
    const expected = { ...change, campaignId: id, creator: alice.address, rewardToken: rwd, amount: created!.amount };
    expect(result.campaign).to.deep.equal(expected);
    expect(await getLatestParams(id!)).to.deep.equal(expected);
    expect(await getCampaign(id!)).to.deep.equal(created);
  });

  it('refuses to move the start of a started campaign (InvalidOverride)', async () => {
    const now = await getLatestTimestamp(devnet);
    const input = await erc20Campaign({ startTimestamp: now + 100, duration: 3600 });
    const {
      campaignIds: [id],
    } = await createCampaigns({ ...target, campaigns: [input] });
    await mine({ rpcUrl: devnet.rpcUrl, timestamp: now + 200 });
    const keep = {
      campaignType: 1,
      startTimestamp: input.startTimestamp,
      duration: 7200,
      campaignData: input.campaignData,
    };
    await expectRevert(
      overrideCampaign({ ...target, campaignId: id!, campaign: { ...keep, startTimestamp: now + 300 } }),
      'InvalidOverride',
    );
    const extended = await overrideCampaign({ ...target, campaignId: id!, campaign: keep });
    expect(extended.campaign.duration).to.equal(7200);
  });

  it('reallocates only after the end, emitting the current CampaignReallocation layout', async () => {
    const now = await getLatestTimestamp(devnet);
    const input = await erc20Campaign({ startTimestamp: now + 10, duration: 3600 });
    const {
      campaignIds: [id],
    } = await createCampaigns({ ...target, campaigns: [input] });
    const froms = [alice.address, bob.address];
    await expectRevert(
      reallocateCampaignRewards({ ...target, campaignId: id!, froms, to: stack.deployer }),
      'InvalidReallocation',
    );
    await mine({ rpcUrl: devnet.rpcUrl, timestamp: input.startTimestamp + input.duration });
    const result = await reallocateCampaignRewards({ ...target, campaignId: id!, froms, to: stack.deployer });

    const receipt = await clients.publicClient.getTransactionReceipt({ hash: result.txHash });
    expect(receipt.logs).to.have.length(1);
    expect(receipt.logs[0]!.topics).to.have.length(2);
    expect(receipt.logs[0]!.topics[0]).to.equal(REALLOCATION_TOPIC);
    const [event] = parseEventLogs({
      abi: distributionCreatorAbi,
      eventName: 'CampaignReallocation',
      logs: receipt.logs,
    });
    expect(event!.args).to.deep.equal({ _campaignId: id, from: froms, to: stack.deployer });
    const list = await clients.publicClient.readContract({
      address: stack.distributionCreator,
      abi: distributionCreatorAbi,
      functionName: 'getCampaignListReallocation',
      args: [id!],
    });
    expect(list).to.deep.equal(froms);
  });

  it('reverts CampaignDoesNotExist for an unknown id', async () => {
    await expectRevert(getCampaign(zeroHash), 'CampaignDoesNotExist');
  });
});
