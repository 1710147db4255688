import { expect } from 'chai';
import { createPublicClient, erc20Abi, http, toEventSelector, type RpcLog } from 'viem';
import { createCampaigns, encodeErc20CampaignData } from '../../../contracts/actions.js';
import { jsonRpc } from '../../../contracts/devnet.js';
import { campaignOverrideEvent, newCampaignEvent } from '../../../domain/abis/distributionCreator.js';
import { computeCampaignId } from '../../../domain/campaignId.js';
import { decodeCampaignTupleData } from '../../../indexer/decode/newCampaignData.js';
import { startSyntheticCampaignDevnet, type SyntheticCampaignDevnet } from '../../../scripts/bench/syntheticLogNode.js';

const CHAIN_ID = 31337;
const CAMPAIGNS = 121; // 1 real + 120 synthetic: blocks of 50, 50 and 20

describe('scripts/bench/syntheticLogNode: what the synthetic node serves is what the chain would', function () {
  this.timeout(120_000);
  let setup: SyntheticCampaignDevnet;
  const getLogs = (url: string, filter: Record<string, unknown>) => jsonRpc<RpcLog[]>(url, 'eth_getLogs', [filter]);

  before(async () => {
    setup = await startSyntheticCampaignDevnet({ chainId: CHAIN_ID, campaigns: CAMPAIGNS });
  });
  after(async () => {
    await setup?.node.stop();
    await setup?.devnet.stop();
  });

  it('serves a chain of headers above the devnet head, each linked to its parent, one second apart', async () => {
    const client = createPublicClient({ transport: http(setup.node.rpcUrl) });
    expect(Number(await client.getBlockNumber())).to.equal(setup.node.base + 3);
    const blocks = await Promise.all(
      [0, 1, 2, 3].map((i) => client.getBlock({ blockNumber: BigInt(setup.node.base + i) })),
    );
    for (let i = 1; i < blocks.length; i++) {
      expect(blocks[i]!.parentHash).to.equal(blocks[i - 1]!.hash);
      expect(blocks[i]!.timestamp).to.equal(blocks[i - 1]!.timestamp + 1n);
    }
    expect(new Set(blocks.map((b) => b.hash)).size).to.equal(4);
    expect((await client.getBlock({ blockTag: 'latest' })).hash).to.equal(blocks[3]!.hash);
    expect(
      await jsonRpc(setup.node.rpcUrl, 'eth_getBlockByNumber', [`0x${(setup.node.base + 4).toString(16)}`, false]),
    ).to.equal(null);
  });

  it('serves every NewCampaign once, in chain order, with the id the contract derives, in blocks of 50', async () => {
    const logs = await getLogs(setup.node.rpcUrl, {
      fromBlock: '0x0',
      toBlock: 'latest',
      address: setup.stack.distributionCreator,
      topics: [toEventSelector(newCampaignEvent)],
    });
    expect(logs).to.have.length(CAMPAIGNS);
    const perBlock = new Map<string, number>();
    for (const log of logs) perBlock.set(log.blockNumber!, (perBlock.get(log.blockNumber!) ?? 0) + 1);
    expect([...perBlock.values()]).to.deep.equal([1, 50, 50, 20]);
    const tuples = logs.map((l) => decodeCampaignTupleData(l.data)!);
    for (const t of tuples) expect(t.campaignId).to.equal(computeCampaignId({ chainId: CHAIN_ID, ...t }));
    expect(new Set(tuples.map((t) => t.campaignId)).size).to.equal(CAMPAIGNS);
    const positions = logs.map((l) => [Number(l.blockNumber), Number(l.logIndex)]);
    expect(positions).to.deep.equal([...positions].sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!));
    // A range inside the synthetic blocks answers only those blocks.
    const middle = `0x${(setup.node.base + 2).toString(16)}`;
    expect(await getLogs(setup.node.rpcUrl, { fromBlock: middle, toBlock: middle })).to.have.length(50);
  });

  it('serves logs equal to those the contract emits for the same campaigns', async () => {
    const synthetic = (
      await getLogs(setup.node.rpcUrl, { fromBlock: `0x${(setup.node.base + 1).toString(16)}`, toBlock: 'latest' })
    ).map((l) => decodeCampaignTupleData(l.data)!);
    const first = synthetic[0]!;
    const last = synthetic[synthetic.length - 1]!;
    // The same campaigns created for real on the devnet below (its head moves on; the node's base does not).
    const created = await createCampaigns({
      rpcUrl: setup.devnet.rpcUrl,
      chainId: CHAIN_ID,
      stack: setup.stack,
      campaigns: [first, last].map((t) => ({
        rewardToken: t.rewardToken,
        amount: 10n ** 17n,
        campaignType: t.campaignType,
        startTimestamp: t.startTimestamp,
        duration: t.duration,
        campaignData: encodeErc20CampaignData({ targetToken: setup.stack.tokens.targets[0]!.address }),
      })),
    });
    const real = await getLogs(setup.devnet.rpcUrl, {
      fromBlock: `0x${created.blockNumber.toString(16)}`,
      toBlock: `0x${created.blockNumber.toString(16)}`,
      address: setup.stack.distributionCreator,
      topics: [toEventSelector(newCampaignEvent)],
    });
    expect(real.map((l) => decodeCampaignTupleData(l.data))).to.deep.equal([first, last]);
  });

  it('leaves out its logs for another event or another contract, and reads contracts at its blocks', async () => {
    // From the first synthetic block: the devnet's own blocks hold the deployment's logs of both contracts.
    const all = { fromBlock: `0x${(setup.node.base + 1).toString(16)}`, toBlock: 'latest' };
    expect(
      await getLogs(setup.node.rpcUrl, { ...all, topics: [toEventSelector(campaignOverrideEvent)] }),
    ).to.deep.equal([]);
    expect(await getLogs(setup.node.rpcUrl, { ...all, address: setup.stack.distributor })).to.deep.equal([]);
    const client = createPublicClient({ transport: http(setup.node.rpcUrl) });
    const symbol = await client.readContract({
      address: setup.stack.tokens.rewards[0]!.address,
      abi: erc20Abi,
      functionName: 'symbol',
      blockNumber: BigInt(setup.node.head),
    });
    expect(symbol).to.be.a('string').and.not.equal('');
  });
});
