/**
 * The demo's real protocol objects (#42): Uniswap V3 pools (the published @uniswap/v3-core 1.0.1
 * artifacts) for its CLAMM markets, Morpho Blue markets (contracts/artifacts/morpho-blue) for its
 * MORPHO markets and Uniswap V4 pools in the real PoolManager (@uniswap/v4-core 1.0.2 artifacts:
 * contracts/uniswapV4.ts) for its UNISWAP_V4 markets, all deployed by hardhat account #10 so that
 * Morpho Blue lands at DEVNET_MORPHO_BLUE (its nonce 0) and the PoolManager at
 * DEVNET_UNISWAP_V4_POOL_MANAGER (its nonce after the Morpho and V3 transactions of the demo's fixed
 * markets) on any fresh devnet, the addresses the chain config names. New deployments are appended
 * after the earlier ones, never put before them (that would move both addresses).
 */
import { getAddress, maxUint256, zeroAddress, type Abi, type Address, type Hex } from 'viem';
import { testErc20Abi, uniswapV3MinterAbi, uniswapV3MinterBytecode } from '../contracts/artifacts/index.js';
import { morphoAbi } from '../contracts/artifacts/morpho-blue/index.js';
import { confirmed as send, createDevnetClients, type DevnetClients } from '../contracts/clients.js';
import { deployMorphoBlue, morphoMarketId } from '../contracts/morphoBlue.js';
import { uniswapV3FactoryAbi, uniswapV3FactoryBytecode, uniswapV3PoolAbi } from '../contracts/uniswapV3.js';
import {
  addUniswapV4Liquidity,
  deployUniswapV4Manager,
  uniswapV4PoolId,
  uniswapV4PoolManagerAbi,
} from '../contracts/uniswapV4.js';
import {
  DEVNET_MORPHO_BLUE,
  DEVNET_PROTOCOL_DEPLOYER,
  DEVNET_UNISWAP_V4_POOL_MANAGER,
  DEVNET_UNISWAP_V4_POOL_MANAGER_NONCE,
} from '../internal/devnetChains.js';

/** Hardhat's public test account #10 (DEVNET_PROTOCOL_DEPLOYER). Never use outside devnets. */
const PROTOCOL_DEPLOYER_KEY = '0xf214f2b2cd398c806f84e317254e0f0b801d0643303237d97a22a48e01628897' as const;
/** Fee tier of the demo pools: 0.3 %, tick spacing 60. */
const POOL_FEE = 3000;
const TICK_SPACING = 60;
/** LLTV of the demo Morpho markets (86 %, enabled once). */
const LLTV = 860_000_000_000_000_000n;

/** A token of the demo with the USD price the demo price API serves for it. */
export type DemoPricedToken = { address: Address; decimals: number; priceUsd: number };

export type DemoPoolSpec = { token: DemoPricedToken; quote: DemoPricedToken; tvlUsd: number };
export type DemoMorphoSpec = { loan: DemoPricedToken; collateral: Address; tvlUsd: number };
export type DemoPool = { pool: Address; token0: Address; token1: Address };
export type DemoMorphoMarket = { morpho: Address; marketId: Hex };
export type DemoV4Pool = { poolManager: Address; poolId: Hex; currency0: Address; currency1: Address };

async function deploy(clients: DevnetClients, abi: Abi, bytecode: Hex, args: readonly unknown[] = []) {
  return getAddress(
    (await send(clients, clients.walletClient.deployContract({ abi, bytecode, args }))).contractAddress!,
  );
}

/** Mints `amount` of a TestERC20 to the protocol deployer and, unless done before, approves `spender` for it all. */
async function fund(clients: DevnetClients, token: Address, amount: bigint, spender: Address, approved: Set<string>) {
  const { walletClient: wallet, account } = clients;
  await send(
    clients,
    wallet.writeContract({ address: token, abi: testErc20Abi, functionName: 'mint', args: [account.address, amount] }),
  );
  if (approved.has(`${token}:${spender}`)) return;
  await send(
    clients,
    wallet.writeContract({ address: token, abi: testErc20Abi, functionName: 'approve', args: [spender, maxUint256] }),
  );
  approved.add(`${token}:${spender}`);
}

const toUnits = (usd: number, t: DemoPricedToken) => BigInt(Math.round(usd / t.priceUsd)) * 10n ** BigInt(t.decimals);

/**
 * Pure: the pool's starting price and three positions worth about `tvlUsd` at the demo prices: 60 %
 * in ±600 ticks around the price, 40 % in ±6000, plus an out-of-range position above the price
 * (token0 only, 1/4 of the narrow one's liquidity) that the pool holds but that earns no fees.
 */
export function planDemoPool(token0: DemoPricedToken, token1: DemoPricedToken, tvlUsd: number) {
  // token1 base units per token0 base unit, and the token1 base units worth tvlUsd.
  const price = (token0.priceUsd / token1.priceUsd) * 10 ** (token1.decimals - token0.decimals);
  const value1 = (tvlUsd / token1.priceUsd) * 10 ** token1.decimals;
  const tick = Math.floor(Math.log(price) / Math.log(1.0001));
  const sqrtAt = (t: number) => Math.sqrt(1.0001 ** t);
  const sP = Math.sqrt(price);
  const align = (t: number, up: boolean) =>
    (up ? Math.ceil(t / TICK_SPACING) : Math.floor(t / TICK_SPACING)) * TICK_SPACING;
  const inRange = (width: number, share: number) => {
    const [lower, upper] = [align(tick - width, false), align(tick + width, true)];
    const [sA, sB] = [sqrtAt(lower), sqrtAt(upper)];
    // Value in token1 of liquidity L: amount1 + amount0 × price = L((sP − sA) + sP(sB − sP)/sB).
    return { tickLower: lower, tickUpper: upper, liquidity: (value1 * share) / (sP - sA + (sP * (sB - sP)) / sB) };
  };
  const narrow = inRange(600, 0.6);
  const positions = [
    narrow,
    inRange(6000, 0.4),
    { tickLower: align(tick + 1200, true), tickUpper: align(tick + 2400, true), liquidity: narrow.liquidity / 4 },
  ].map((p) => ({ ...p, liquidity: BigInt(Math.floor(p.liquidity)) }));
  return { sqrtPriceX96: BigInt(Math.floor(sP * 2 ** 96)), positions };
}

/**
 * Deploys Morpho Blue (account #10's nonce 0: DEVNET_MORPHO_BLUE), an IRM and an oracle mock, and one
 * market per spec (loan token = the spec's demo token) supplied with `tvlUsd` of it; then a Uniswap V3
 * factory and minter, and one 0.3 % pool per spec initialized at the demo prices with three positions
 * (planDemoPool); then the Uniswap V4 PoolManager and its test routers (checked at
 * DEVNET_UNISWAP_V4_POOL_MANAGER) and one hookless 0.3 % V4 pool per `v4Pools` spec, initialized and
 * filled the same way (planDemoPool, through PoolModifyLiquidityTest). Tokens are TestERC20s, minted
 * to account #10 as needed.
 * @returns the markets, pools and V4 pools in spec order.
 */
export async function seedDemoProtocols({
  rpcUrl,
  chainId,
  pools,
  markets,
  v4Pools = [],
}: {
  rpcUrl: string;
  chainId: number;
  pools: DemoPoolSpec[];
  markets: DemoMorphoSpec[];
  v4Pools?: DemoPoolSpec[];
}): Promise<{ pools: DemoPool[]; markets: DemoMorphoMarket[]; v4Pools: DemoV4Pool[] }> {
  const clients = createDevnetClients({ rpcUrl, chainId, privateKey: PROTOCOL_DEPLOYER_KEY });
  if (clients.account.address !== DEVNET_PROTOCOL_DEPLOYER) throw new Error('demo protocol deployer key mismatch');
  const { walletClient: wallet, publicClient } = clients;
  if ((await publicClient.getTransactionCount({ address: clients.account.address })) !== 0)
    throw new Error(
      `account #10 has sent transactions on chain ${chainId}: Morpho Blue would miss ${DEVNET_MORPHO_BLUE}`,
    );

  const { morpho, irm, oracle } = await deployMorphoBlue(clients, LLTV);
  const approved = new Set<string>();
  const seededMarkets: DemoMorphoMarket[] = [];
  for (const m of markets) {
    const marketParams = { loanToken: m.loan.address, collateralToken: m.collateral, oracle, irm, lltv: LLTV };
    const assets = toUnits(m.tvlUsd, m.loan);
    await send(
      clients,
      wallet.writeContract({ address: morpho, abi: morphoAbi, functionName: 'createMarket', args: [marketParams] }),
    );
    await fund(clients, m.loan.address, assets, morpho, approved);
    await send(
      clients,
      wallet.writeContract({
        address: morpho,
        abi: morphoAbi,
        functionName: 'supply',
        args: [marketParams, assets, 0n, clients.account.address, '0x'],
      }),
    );
    seededMarkets.push({ morpho, marketId: morphoMarketId(marketParams) });
  }

  const factory = await deploy(clients, uniswapV3FactoryAbi, uniswapV3FactoryBytecode);
  const minter = await deploy(clients, uniswapV3MinterAbi, uniswapV3MinterBytecode);
  const seededPools: DemoPool[] = [];
  for (const p of pools) {
    const [token0, token1] =
      BigInt(p.token.address) < BigInt(p.quote.address) ? [p.token, p.quote] : [p.quote, p.token];
    // What the positions can take at most (the minter pulls only what the pool asks for).
    for (const t of [token0, token1]) await fund(clients, t.address, toUnits(4 * p.tvlUsd, t), minter, approved);
    await send(
      clients,
      wallet.writeContract({
        address: factory,
        abi: uniswapV3FactoryAbi,
        functionName: 'createPool',
        args: [token0.address, token1.address, POOL_FEE],
      }),
    );
    const pool = getAddress(
      (await publicClient.readContract({
        address: factory,
        abi: uniswapV3FactoryAbi,
        functionName: 'getPool',
        args: [token0.address, token1.address, POOL_FEE],
      })) as Address,
    );
    const plan = planDemoPool(token0, token1, p.tvlUsd);
    await send(
      clients,
      wallet.writeContract({
        address: pool,
        abi: uniswapV3PoolAbi,
        functionName: 'initialize',
        args: [plan.sqrtPriceX96],
      }),
    );
    for (const position of plan.positions)
      await send(
        clients,
        wallet.writeContract({
          address: minter,
          abi: uniswapV3MinterAbi,
          functionName: 'mint',
          args: [pool, position.tickLower, position.tickUpper, position.liquidity],
        }),
      );
    seededPools.push({ pool, token0: token0.address, token1: token1.address });
  }

  // Appended after every earlier transaction of account #10: the PoolManager's nonce is fixed by the
  // demo's markets (DEVNET_UNISWAP_V4_POOL_MANAGER_NONCE), and a different count must not go unnoticed.
  const nonce = await publicClient.getTransactionCount({ address: clients.account.address });
  const signer = { rpcUrl, chainId, deployerKey: PROTOCOL_DEPLOYER_KEY } as const;
  const manager = await deployUniswapV4Manager(signer);
  if (manager.poolManager !== DEVNET_UNISWAP_V4_POOL_MANAGER)
    throw new Error(
      `Uniswap V4 PoolManager at ${manager.poolManager} (account #10's nonce ${nonce}), the chain config names ${DEVNET_UNISWAP_V4_POOL_MANAGER} (nonce ${DEVNET_UNISWAP_V4_POOL_MANAGER_NONCE})`,
    );
  const seededV4Pools: DemoV4Pool[] = [];
  for (const p of v4Pools) {
    const [token0, token1] =
      BigInt(p.token.address) < BigInt(p.quote.address) ? [p.token, p.quote] : [p.quote, p.token];
    for (const t of [token0, token1])
      await fund(clients, t.address, toUnits(4 * p.tvlUsd, t), manager.modifyLiquidityRouter, approved);
    const poolKey = {
      currency0: token0.address,
      currency1: token1.address,
      fee: POOL_FEE,
      tickSpacing: TICK_SPACING,
      hooks: zeroAddress,
    };
    const plan = planDemoPool(token0, token1, p.tvlUsd);
    await send(
      clients,
      wallet.writeContract({
        address: manager.poolManager,
        abi: uniswapV4PoolManagerAbi,
        functionName: 'initialize',
        args: [poolKey, plan.sqrtPriceX96],
      }),
    );
    for (const position of plan.positions)
      await addUniswapV4Liquidity({ ...signer, pool: { ...manager, poolKey }, position });
    seededV4Pools.push({
      poolManager: manager.poolManager,
      poolId: uniswapV4PoolId(poolKey),
      currency0: token0.address,
      currency1: token1.address,
    });
  }
  return { pools: seededPools, markets: seededMarkets, v4Pools: seededV4Pools };
}
