import { encodeAbiParameters, maxUint256, type Address, type Hex } from 'viem';
import {
  claim,
  createCampaigns,
  encodeClammCampaignData,
  encodeErc20CampaignData,
  getLatestTimestamp,
  updateTree,
} from '../contracts/actions.js';
import {
  distributionCreatorAbi,
  distributorAbi,
  testErc20Abi,
  testErc20Bytecode,
} from '../contracts/artifacts/index.js';
import { createDevnetClients, HARDHAT_TEST_KEYS, type DevnetClients } from '../contracts/clients.js';
import type { ChainConfig } from '../internal/chainConfig.js';
import type { DeployedStack } from '../contracts/deploy.js';
import { buildRewardTree } from '../domain/rewardTree.js';
import { buildRewardTreeFile } from '../contracts/rewardTrees/buildRewardTreeFile.js';
import { writeRewardTree } from '../contracts/rewardTrees/writeRewardTree.js';
import {
  DEVNET_DEMO_MARKET_COUNT,
  DEVNET_MORPHO_BLUE,
  DEVNET_UNISWAP_V4_POOL_MANAGER,
  DEVNET_PRETGE_TOKEN,
  devnetDemoMarketToken,
} from '../internal/devnetChains.js';
import { seedDemoProtocols } from './seedDemoProtocols.js';

const HOUR = 3600;
const DAY = 24 * HOUR;

/** Demo markets per chain; their deployer (hardhat account #2) makes their addresses deterministic. */
export const DEMO_MARKETS = [
  'stETHx',
  'wBTCx',
  'sUSDx',
  'GLPx',
  'rETHx',
  'cbETHx',
  'LUSDx',
  'crvUSDx',
  'FRAXx',
  'mETHx',
  'ezETHx',
  'weETHx',
  'sDAIx',
  'USDex',
  'PYUSDx',
  'GHOx',
].map((symbol, i) => ({
  symbol,
  name: `Demo ${symbol}`,
  priceUsd: [3200, 64000, 1, 1.1, 3400, 3300, 1, 1, 1, 3250, 3180, 3350, 1.05, 1, 1, 0.99][i]!,
}));
/**
 * Campaign type of each demo market, by index modulo: ERC20 hold (the market token), CLAMM (a real
 * Uniswap V3 pool of the market token and USDCx), MORPHO (a real Morpho Blue market lending the
 * market token, named by its id), Ajna borrow (the market token), UNISWAP_V4 (a real Uniswap V4 pool
 * of the market token and USDCx in the real PoolManager, named by its pool id). No type is left on a
 * stand-in but those with no protocol to stand on: ERC20 hold is the token itself, and Ajna borrow
 * still targets the market token read as an ERC20 (the devnet has no Ajna pool and the service no
 * Ajna reader).
 */
const MARKET_TYPES = [1, 2, 7, 11, 13] as const;

/**
 * Deterministic address of the i-th demo market token on any fresh devnet: account #2 deploys and
 * mints each (nonces 2i, 2i+1). For CLAMM and MORPHO markets it is the pool's or market's token, not
 * the opportunity (see SeedDemoResult.markets[].identifier).
 */
export function demoMarketAddress(i: number): Address {
  return devnetDemoMarketToken(i);
}

/**
 * Chain config a devnet needs to serve the demo as the quick start does: the demo's Morpho Blue
 * (DEVNET_MORPHO_BLUE) and Uniswap V4 PoolManager (DEVNET_UNISWAP_V4_POOL_MANAGER), both deployed by
 * seedDemoCampaigns, and every demo market token stored and priced (the pools and Morpho markets hold
 * them), on top of `base`.
 */
export function demoChainConfig(base: ChainConfig): Partial<ChainConfig> {
  return {
    morphoBlue: DEVNET_MORPHO_BLUE,
    uniswapV4PoolManager: DEVNET_UNISWAP_V4_POOL_MANAGER,
    tokens: [
      ...base.tokens,
      ...Array.from({ length: DEVNET_DEMO_MARKET_COUNT }, (_, i) => ({ address: demoMarketAddress(i) })),
    ],
  };
}

async function send(
  clients: DevnetClients,
  request: Parameters<DevnetClients['walletClient']['writeContract']>[0],
): Promise<void> {
  const hash = await clients.walletClient.writeContract(request);
  const receipt = await clients.publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success') throw new Error(`demo seeding transaction ${hash} reverted`);
}

async function deployToken(
  clients: DevnetClients,
  name: string,
  symbol: string,
  decimals: number,
  holder: Address,
  supply: bigint,
): Promise<Address> {
  const hash = await clients.walletClient.deployContract({
    abi: testErc20Abi,
    bytecode: testErc20Bytecode,
    args: [name, symbol, decimals],
  });
  const receipt = await clients.publicClient.waitForTransactionReceipt({ hash });
  if (!receipt.contractAddress) throw new Error(`deploying ${symbol} failed`);
  await send(clients, {
    address: receipt.contractAddress,
    abi: testErc20Abi,
    functionName: 'mint',
    args: [holder, supply],
  } as never);
  return receipt.contractAddress;
}

export type SeedDemoParams = { rpcUrl: string; chainId: number; stack: DeployedStack; treeDir: string };
export type SeedDemoResult = {
  campaigns: number;
  /**
   * The demo markets: `address` is the market token (priced by the demo price API), `identifier` the
   * opportunity its campaigns target (the token, the Uniswap V3 pool, the Morpho Blue market id or the
   * Uniswap V4 pool id).
   */
  markets: { address: Address; symbol: string; priceUsd: number; campaignType: number; identifier: Hex }[];
  roots: Hex[];
  claims: number;
};

/**
 * A realistic demo on one devnet: 16 markets (hold, pool, lend, borrow, v4 pool; the pools real
 * Uniswap V3 pools, the lending markets real Morpho Blue markets and the v4 pools real Uniswap V4
 * pools: seedDemoProtocols), 4 campaigns each
 * (live, past, upcoming, long-running) rewarded in a token, a stablecoin, points and a pre-TGE token
 * from several creators, two sub-campaigns, three reward roots with their trees published in
 * `treeDir`, and claims against them.
 */
export async function seedDemoCampaigns({ rpcUrl, chainId, stack, treeDir }: SeedDemoParams): Promise<SeedDemoResult> {
  const governor = createDevnetClients({ rpcUrl, chainId });
  const deployer = stack.deployer;
  const tokenDeployer = createDevnetClients({ rpcUrl, chainId, privateKey: HARDHAT_TEST_KEYS[0] });
  const marketDeployer = createDevnetClients({ rpcUrl, chainId, privateKey: HARDHAT_TEST_KEYS[1] });

  const preTge = await deployToken(tokenDeployer, 'Pre-TGE Points', 'preTGE', 18, deployer, 10n ** 27n);
  if (preTge.toLowerCase() !== DEVNET_PRETGE_TOKEN.toLowerCase())
    throw new Error(`pre-TGE token at ${preTge}, devnet config expects ${DEVNET_PRETGE_TOKEN}`);
  await send(governor, {
    address: preTge,
    abi: testErc20Abi,
    functionName: 'approve',
    args: [stack.distributionCreator, maxUint256],
  } as never);
  await send(governor, {
    address: stack.distributionCreator,
    abi: distributionCreatorAbi,
    functionName: 'setRewardTokenMinAmounts',
    args: [[preTge], [10n ** 15n]],
  } as never);
  await send(governor, {
    address: stack.distributor,
    abi: distributorAbi,
    functionName: 'setEpochDuration',
    args: [60],
  } as never);
  // The chain config stores every demo market token (devnetChains, demoChainConfig): one list, one count.
  if (DEMO_MARKETS.length !== DEVNET_DEMO_MARKET_COUNT)
    throw new Error(`${DEMO_MARKETS.length} demo markets, DEVNET_DEMO_MARKET_COUNT says ${DEVNET_DEMO_MARKET_COUNT}`);
  const tokens: { address: Address; symbol: string; priceUsd: number; tvlUsd: number }[] = [];
  for (const m of DEMO_MARKETS) {
    // TVLs of about $2M to $32M at the demo prices (the token's supply, or what its pool or market holds).
    const tvlUsd = 2_000_000 * (tokens.length + 1);
    const supply = BigInt(Math.round(tvlUsd / m.priceUsd)) * 10n ** 18n;
    const address = await deployToken(marketDeployer, m.name, m.symbol, 18, deployer, supply);
    if (address.toLowerCase() !== demoMarketAddress(tokens.length).toLowerCase())
      throw new Error(`demo market ${m.symbol} at ${address}, expected ${demoMarketAddress(tokens.length)}`);
    tokens.push({ address, symbol: m.symbol, priceUsd: m.priceUsd, tvlUsd });
  }
  const typeOf = (i: number) => MARKET_TYPES[i % MARKET_TYPES.length]!;
  const usdc = stack.tokens.rewards[1]!; // USDCx, priced at $1 by its on-chain feed
  const ofType = (type: number) => tokens.filter((_, i) => typeOf(i) === type);
  const protocols = await seedDemoProtocols({
    rpcUrl,
    chainId,
    pools: ofType(2).map((t) => ({
      token: { address: t.address, decimals: 18, priceUsd: t.priceUsd },
      quote: { address: usdc.address, decimals: usdc.decimals, priceUsd: 1 },
      tvlUsd: t.tvlUsd,
    })),
    markets: ofType(7).map((t) => ({
      loan: { address: t.address, decimals: 18, priceUsd: t.priceUsd },
      collateral: stack.tokens.rewards[0]!.address,
      tvlUsd: t.tvlUsd,
    })),
    v4Pools: ofType(13).map((t) => ({
      token: { address: t.address, decimals: 18, priceUsd: t.priceUsd },
      quote: { address: usdc.address, decimals: usdc.decimals, priceUsd: 1 },
      tvlUsd: t.tvlUsd,
    })),
  });
  const pools = new Map(ofType(2).map((t, k) => [t.address, protocols.pools[k]!]));
  const morphoMarkets = new Map(ofType(7).map((t, k) => [t.address, protocols.markets[k]!.marketId]));
  const v4PoolIds = new Map(ofType(13).map((t, k) => [t.address, protocols.v4Pools[k]!.poolId]));
  const markets: SeedDemoResult['markets'] = tokens.map((t, i) => ({
    address: t.address,
    symbol: t.symbol,
    priceUsd: t.priceUsd,
    campaignType: typeOf(i),
    identifier: (pools.get(t.address)?.pool ??
      morphoMarkets.get(t.address) ??
      v4PoolIds.get(t.address) ??
      t.address) as Hex,
  }));

  const rewards = [
    ...stack.tokens.rewards.map((r) => ({ address: r.address, decimals: r.decimals })),
    { address: preTge, decimals: 18 },
  ];
  const creators: (Address | undefined)[] = [
    undefined,
    '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc',
    '0x90f79bf6eb2c4f937b6d6aa5ce2e4d5a9f8aa7ad',
  ];
  const now = await getLatestTimestamp({ rpcUrl });
  const schedule = [
    { start: now - 2 * HOUR, duration: 14 * DAY },
    { start: now - 20 * DAY, duration: 7 * DAY },
    { start: now + 3 * DAY, duration: 10 * DAY },
    { start: now - DAY, duration: 30 * DAY },
  ];
  const campaigns = markets.flatMap((market, i) => {
    const type = market.campaignType;
    const pool = pools.get(market.address);
    // As the real campaigns encode their target: the ERC20 layout for holding and the CLAMM layout
    // naming the pool (docs/contracts.md#campaign-data-encodings), a Morpho Blue market id and a
    // Uniswap V4 pool id as abi.encode(bytes32) (docs/api-behaviour.md#tvl-per-protocol), other
    // targets (Ajna's stand-in) as one address word.
    const data: Hex =
      type === 1
        ? encodeErc20CampaignData({ targetToken: market.address, url: `https://demo.invalid/markets/${market.symbol}` })
        : pool
          ? encodeClammCampaignData({
              pool: pool.pool,
              weightFees: 2000,
              weightToken0: 4000,
              weightToken1: 4000,
              isOutOfRangeIncentivized: false,
              url: `https://app.uniswap.invalid/positions/create/v3?chain=${chainId}&currencyA=${pool.token0}&currencyB=${pool.token1}&fee=3000`,
            })
          : type === 7 || type === 13
            ? encodeAbiParameters([{ type: 'bytes32' }], [market.identifier])
            : encodeAbiParameters([{ type: 'address' }], [market.address]);
    return schedule.map((s, k) => {
      const reward = rewards[(i + k) % rewards.length]!;
      const creator = creators[(i + k) % creators.length];
      return {
        rewardToken: reward.address,
        amount: 10n ** BigInt(reward.decimals) * BigInt(50_000 * (k + 1) + 3_700 * i),
        campaignType: type,
        startTimestamp: s.start + i,
        duration: s.duration,
        campaignData: data,
        ...(creator ? { creator } : {}),
      };
    });
  });
  const ids: Hex[] = [];
  for (let i = 0; i < campaigns.length; i += 16)
    ids.push(...(await createCampaigns({ rpcUrl, chainId, stack, campaigns: campaigns.slice(i, i + 16) })).campaignIds);
  // Two sub-campaigns (ERC20 layout, parent named in extraData) under the first hold market's live campaign.
  const parent = ids[0]!;
  const subs = await createCampaigns({
    rpcUrl,
    chainId,
    stack,
    campaigns: [0, 1].map((k) => ({
      rewardToken: stack.tokens.rewards[0]!.address,
      amount: 10n ** 18n * 100n,
      campaignType: 1,
      startTimestamp: now - HOUR + k,
      duration: 7 * DAY,
      campaignData: encodeErc20CampaignData({ targetToken: markets[0]!.address, extraData: parent }),
    })),
  });

  // Campaign j rewards in rewards[(market + slot) % 4]: keep those paying in RWD, the tree's token.
  const rwdCampaigns = ids.filter(
    (_, j) => (Math.floor(j / schedule.length) + (j % schedule.length)) % rewards.length === 0,
  );
  const published = await publishTrees({
    rpcUrl,
    chainId,
    stack,
    treeDir,
    campaignIds: rwdCampaigns,
    rewardToken: stack.tokens.rewards[0]!.address,
  });
  return { campaigns: ids.length + subs.campaignIds.length, markets, roots: published.roots, claims: published.claims };
}

/** Three growing reward roots for accounts #5–#9 (trees written to treeDir), then claims against roots 2 and 3. */
async function publishTrees({
  rpcUrl,
  chainId,
  stack,
  treeDir,
  campaignIds,
  rewardToken,
}: Omit<SeedDemoParams, 'treeDir'> & { treeDir: string; campaignIds: Hex[]; rewardToken: Address }) {
  const recipients: Address[] = [
    '0x9965507d1a55bcc2695c58ba16fb37d819b0a4dc',
    '0x976ea74026e726554db657fa54763abd0c3a0aa9',
    '0x14dc79964da2c08b23698b3d3cc7ca32193d9955',
    '0x23618e81e3f5cdf7f54c3d65f7fbc0abf5b21e8f',
    '0xa0ee7a142d267c1f36714e4a8f75612f20a79720',
  ];
  const roots: Hex[] = [];
  let claims = 0;
  for (let round = 1; round <= 3; round++) {
    const file = buildRewardTreeFile({
      chainId,
      rewards: recipients.map((recipient, r) => ({
        recipient,
        token: rewardToken,
        breakdowns: [0, 1].map((c) => ({
          campaignId: campaignIds[(2 * r + c) % campaignIds.length]!,
          reason: c ? 'lp' : 'holder',
          amount: 10n ** 17n * BigInt(round * (r + 1) * (c + 3)),
        })),
      })),
    });
    await writeRewardTree(treeDir, file);
    await updateTree({ rpcUrl, chainId, stack, root: file.root, mineUntilLive: true });
    roots.push(file.root);
    if (round < 2) continue;
    const tree = buildRewardTree(
      file.rewards.map((e) => ({ user: e.recipient as Address, token: e.token as Address, amount: BigInt(e.amount) })),
    );
    const claimants = file.rewards.slice(0, round === 2 ? 2 : 1);
    await claim({
      rpcUrl,
      chainId,
      stack,
      claims: claimants.map((e) => ({
        user: e.recipient as Address,
        token: e.token as Address,
        amount: BigInt(e.amount),
        proof: tree.proofs.get(`${e.recipient}-${e.token}`.toLowerCase()) ?? [],
      })),
    });
    claims += claimants.length;
  }
  return { roots, claims };
}
