/**
 * Deploys the devnet stack: Distributor, DistributionCreator, reward and target test tokens, price feeds,
 * and Multicall3 at its canonical address.
 */
import { getAddress, maxUint256 } from 'viem';
import type { Abi, Address, Hex } from 'viem';
import {
  distributionCreatorAbi,
  distributionCreatorBytecode,
  distributorAbi,
  distributorBytecode,
  multicall3DeployedBytecode,
  priceFeedAbi,
  priceFeedBytecode,
  testErc20Abi,
  testErc20Bytecode,
} from './artifacts/index.js';
import { MULTICALL3_ADDRESS, createDevnetClients } from './clients.js';
import type { DevnetClients } from './clients.js';
import { jsonRpc } from './devnet.js';

/** Fee of the stand-in DistributionCreator: 3e7 in base 1e9 = 3% (docs/contracts.md#fees-and-rebates). */
export const DEVNET_DEFAULT_FEES = 30_000_000n;

/** Reward tokens in deployment order, with their per-hour minimum and the initial USD price (8 decimals). */
export const REWARD_TOKEN_SPECS = [
  { name: 'Reward Token', symbol: 'RWD', decimals: 18, minAmountPerHour: 10n ** 15n, priceUsd8: 250_000_000n },
  { name: 'USD Coin (test)', symbol: 'USDCx', decimals: 6, minAmountPerHour: 1_000n, priceUsd8: 100_000_000n },
  { name: 'Points', symbol: 'PTS', decimals: 18, minAmountPerHour: 10n ** 15n, priceUsd8: 1_000_000n },
] as const;

/** Tokens campaigns point at (ERC20 targets / pool stand-ins), in deployment order. */
export const TARGET_TOKEN_SPECS = [
  { name: 'Staked Test Token', symbol: 'stTST', decimals: 18 },
  { name: 'Test LP Token', symbol: 'TLP', decimals: 18 },
] as const;

/** Decimals of every PriceFeed (Chainlink USD feeds use 8). */
export const PRICE_FEED_DECIMALS = 8;

export type DeployedRewardToken = {
  address: Address;
  name: string;
  symbol: string;
  decimals: number;
  minAmountPerHour: bigint;
  priceFeed: Address;
};

export type DeployedTargetToken = { address: Address; name: string; symbol: string; decimals: number };

export type DeployedStack = {
  chainId: number;
  distributionCreator: Address;
  distributor: Address;
  multicall3: Address;
  tokens: { rewards: DeployedRewardToken[]; targets: DeployedTargetToken[] };
  deployer: Address;
  /** Block of the first deployment (the Distributor): a safe indexer start block. */
  deployBlock: bigint;
  defaultFees: bigint;
};

export type DeployStackParams = { rpcUrl: string; chainId: number; deployerKey?: Hex };

async function deploy(clients: DevnetClients, abi: Abi, bytecode: Hex, args: readonly unknown[]) {
  const hash = await clients.walletClient.deployContract({ abi, bytecode, args });
  const receipt = await clients.publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success' || !receipt.contractAddress) throw new Error(`deployment ${hash} failed`);
  return { address: getAddress(receipt.contractAddress), blockNumber: receipt.blockNumber };
}

async function confirm(clients: DevnetClients, pending: Promise<Hex>) {
  const hash = await pending;
  const receipt = await clients.publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success') throw new Error(`transaction ${hash} reverted`);
}

/**
 * Deploys and configures the whole stack, one transaction at a time in a fixed order, so a fresh devnet
 * (deployer nonce 0) always gets the same addresses whatever its chain id.
 *
 * Order: Distributor; DistributionCreator(distributor, 3%); reward tokens RWD/USDCx/PTS; target tokens
 * stTST/TLP; one PriceFeed per reward token; whitelist with per-hour minimums; dispute period 0; mint
 * 1e9 whole reward tokens and 1e6 target tokens to the deployer; approve the DistributionCreator for max;
 * install Multicall3 runtime code at 0xcA11…CA11 (hardhat_setCode, not a transaction).
 * @returns addresses, token metadata, deployer and the first deployment block.
 */
export async function deployStack({ rpcUrl, chainId, deployerKey }: DeployStackParams): Promise<DeployedStack> {
  const clients = createDevnetClients({ rpcUrl, chainId, privateKey: deployerKey });
  const deployer = clients.account.address;

  const distributor = await deploy(clients, distributorAbi, distributorBytecode, []);
  const creator = await deploy(clients, distributionCreatorAbi, distributionCreatorBytecode, [
    distributor.address,
    DEVNET_DEFAULT_FEES,
  ]);
  const rewardAddresses: Address[] = [];
  for (const t of REWARD_TOKEN_SPECS) {
    rewardAddresses.push(
      (await deploy(clients, testErc20Abi, testErc20Bytecode, [t.name, t.symbol, t.decimals])).address,
    );
  }
  const targets: DeployedTargetToken[] = [];
  for (const t of TARGET_TOKEN_SPECS) {
    const { address } = await deploy(clients, testErc20Abi, testErc20Bytecode, [t.name, t.symbol, t.decimals]);
    targets.push({ address, name: t.name, symbol: t.symbol, decimals: t.decimals });
  }
  const rewards: DeployedRewardToken[] = [];
  for (const [i, t] of REWARD_TOKEN_SPECS.entries()) {
    const feed = await deploy(clients, priceFeedAbi, priceFeedBytecode, [
      PRICE_FEED_DECIMALS,
      `${t.symbol} / USD`,
      t.priceUsd8,
    ]);
    rewards.push({
      address: rewardAddresses[i]!,
      name: t.name,
      symbol: t.symbol,
      decimals: t.decimals,
      minAmountPerHour: t.minAmountPerHour,
      priceFeed: feed.address,
    });
  }

  const { walletClient: wallet } = clients;
  await confirm(
    clients,
    wallet.writeContract({
      address: creator.address,
      abi: distributionCreatorAbi,
      functionName: 'setRewardTokenMinAmounts',
      args: [rewards.map((r) => r.address), rewards.map((r) => r.minAmountPerHour)],
    }),
  );
  await confirm(
    clients,
    wallet.writeContract({
      address: distributor.address,
      abi: distributorAbi,
      functionName: 'setDisputePeriod',
      args: [0],
    }),
  );
  for (const r of rewards) {
    const amount = 10n ** 9n * 10n ** BigInt(r.decimals);
    await confirm(
      clients,
      wallet.writeContract({ address: r.address, abi: testErc20Abi, functionName: 'mint', args: [deployer, amount] }),
    );
    await confirm(
      clients,
      wallet.writeContract({
        address: r.address,
        abi: testErc20Abi,
        functionName: 'approve',
        args: [creator.address, maxUint256],
      }),
    );
  }
  for (const t of targets) {
    const amount = 10n ** 6n * 10n ** BigInt(t.decimals);
    await confirm(
      clients,
      wallet.writeContract({ address: t.address, abi: testErc20Abi, functionName: 'mint', args: [deployer, amount] }),
    );
  }
  await jsonRpc(rpcUrl, 'hardhat_setCode', [MULTICALL3_ADDRESS, multicall3DeployedBytecode]);

  return {
    chainId,
    distributionCreator: creator.address,
    distributor: distributor.address,
    multicall3: MULTICALL3_ADDRESS,
    tokens: { rewards, targets },
    deployer,
    deployBlock: distributor.blockNumber,
    defaultFees: DEVNET_DEFAULT_FEES,
  };
}
