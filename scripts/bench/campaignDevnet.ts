/**
 * A devnet holding N NewCampaign logs, shared by the indexer and peer benchmarks (scripts/bench/indexer.ts,
 * scripts/bench/peer.ts): a fresh Hardhat node, our contract stack, the reward token approved, and
 * campaigns created in batches of 50 per `createCampaigns` transaction.
 */
import { erc20Abi, maxUint256 } from 'viem';
import {
  encodeErc20CampaignData,
  getLatestTimestamp,
  toCampaignTuple,
  type CampaignInput,
} from '../../contracts/actions.js';
import { distributionCreatorAbi } from '../../contracts/artifacts/index.js';
import { createDevnetClients } from '../../contracts/clients.js';
import { deployStack, type DeployedStack } from '../../contracts/deploy.js';
import { findFreePort, jsonRpc, startDevnet, type Devnet } from '../../contracts/devnet.js';
import type { ChainConfig } from '../../internal/config.js';

/** Campaigns per `createCampaigns` transaction. */
export const CAMPAIGNS_PER_TX = 50;

/** The campaign the benchmarks create: an ERC20 campaign of 0.1 of the first reward token over a day, from `startTimestamp`. */
export function benchCampaign(stack: DeployedStack, startTimestamp: number): CampaignInput {
  return {
    rewardToken: stack.tokens.rewards[0]!.address,
    amount: 10n ** 17n,
    campaignType: 1,
    startTimestamp,
    duration: 86_400,
    campaignData: encodeErc20CampaignData({ targetToken: stack.tokens.targets[0]!.address }),
  };
}

export type CreateCampaignsParams = {
  rpcUrl: string;
  chainId: number;
  stack: DeployedStack;
  count: number;
  /** Added to every start timestamp, so later calls create distinct campaigns. */
  startOffset: number;
};

/**
 * Creates `count` ERC20 campaigns, `CAMPAIGNS_PER_TX` per transaction, waiting for each receipt.
 * Progress goes to stderr. The reward token must already be approved (see `startCampaignDevnet`).
 * @throws Error naming the batch whose transaction reverted.
 */
export async function createCampaigns({
  rpcUrl,
  chainId,
  stack,
  count,
  startOffset,
}: CreateCampaignsParams): Promise<void> {
  const { walletClient, publicClient } = createDevnetClients({ rpcUrl, chainId });
  const now = await getLatestTimestamp({ rpcUrl });
  let gas: bigint | undefined;
  for (let done = 0; done < count; done += CAMPAIGNS_PER_TX) {
    const campaigns = Array.from({ length: Math.min(CAMPAIGNS_PER_TX, count - done) }, (_, i) =>
      toCampaignTuple(benchCampaign(stack, now + 3600 + startOffset + done + i)),
    );
    const call = {
      address: stack.distributionCreator,
      abi: distributionCreatorAbi,
      functionName: 'createCampaigns',
      args: [campaigns],
    } as const;
    // Estimated once, with a margin: every full batch costs about the same, and estimating each one would run
    // every batch twice in the devnet's EVM (a revert from too little gas still fails the receipt check below).
    gas ??= ((await publicClient.estimateContractGas({ ...call, account: walletClient.account })) * 5n) / 4n;
    const hash = await walletClient.writeContract({ ...call, gas });
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== 'success')
      throw new Error(`createCampaigns reverted at campaign ${done} of ${count} (tx ${hash})`);
    if (done % (CAMPAIGNS_PER_TX * 100) === 0) process.stderr.write(`  created ${done + campaigns.length}/${count}\r`);
  }
  process.stderr.write('\n');
}

export type CampaignDevnet = {
  devnet: Devnet;
  stack: DeployedStack;
  /** Wall time of `createCampaigns` alone (deploy excluded). */
  createSeconds: number;
  /** Latest block once everything was created and the extra blocks mined. */
  head: number;
};

export type StartCampaignDevnetParams = {
  chainId: number;
  campaigns: number;
  /** Empty blocks mined after the last campaign (e.g. to pass a peer's finality depth); default 0. */
  extraBlocks?: number;
};

/**
 * Starts a devnet on a free port, deploys the stack, approves the reward token and creates `campaigns`
 * campaigns. The caller stops `devnet` (it is stopped here only if setup fails).
 */
export async function startCampaignDevnet({
  chainId,
  campaigns,
  extraBlocks = 0,
}: StartCampaignDevnetParams): Promise<CampaignDevnet> {
  const devnet = await startDevnet({ chainId, port: await findFreePort() });
  try {
    const stack = await deployStack({ rpcUrl: devnet.rpcUrl, chainId });
    const { walletClient, publicClient } = createDevnetClients({ rpcUrl: devnet.rpcUrl, chainId });
    await walletClient.writeContract({
      address: stack.tokens.rewards[0]!.address,
      abi: erc20Abi,
      functionName: 'approve',
      args: [stack.distributionCreator, maxUint256],
    });
    const t0 = performance.now();
    await createCampaigns({ rpcUrl: devnet.rpcUrl, chainId, stack, count: campaigns, startOffset: 0 });
    const createSeconds = (performance.now() - t0) / 1000;
    // One evm_mine per block: hardhat_mine leaves "reserved" blocks whose parentHash reads as zero.
    for (let i = 0; i < extraBlocks; i++) await jsonRpc(devnet.rpcUrl, 'evm_mine');
    return { devnet, stack, createSeconds, head: Number(await publicClient.getBlockNumber()) };
  } catch (error) {
    await devnet.stop();
    throw error;
  }
}

/**
 * The settings (as environment variables) our indexer runs with in the benchmarks over a campaign
 * devnet: its one chain, the benchmark's database and index prefix, and the batch sizes of a backfill.
 */
export function benchIndexerEnv({
  rpcUrl,
  chainId,
  stack,
  databaseUrl,
  prefix,
}: {
  rpcUrl: string;
  chainId: number;
  stack: DeployedStack;
  databaseUrl: string;
  prefix: string;
}): Record<string, string> {
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    DATABASE_URL: databaseUrl,
    ES_INDEX_PREFIX: prefix,
    CHAINS: JSON.stringify([benchChainConfig(rpcUrl, chainId, stack)]),
    INDEXER_MAX_LOG_RANGE: '2000',
    INDEXER_PUBLISH_BATCH: '2000',
    INDEXER_MAX_BLOCK_BATCH: '1000',
  };
}

/** The chain entry of our config (CHAINS) for a benchmark devnet: no confirmations, start at block 0. */
export function benchChainConfig(rpcUrl: string, chainId: number, stack: DeployedStack): ChainConfig {
  return {
    id: chainId,
    name: 'Bench',
    icon: '',
    rpcUrl,
    distributionCreator: stack.distributionCreator,
    distributor: stack.distributor,
    startBlock: 0,
    confirmations: 0,
    test: false,
    explorers: [],
    nativeToken: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    priceFeeds: {},
    tokens: [],
  };
}
