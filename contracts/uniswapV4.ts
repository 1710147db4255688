/**
 * The real Uniswap V4 core (the @uniswap/v4-core 1.0.2 published foundry artifacts, never recompiled)
 * on a devnet: the PoolManager singleton, its test routers PoolModifyLiquidityTest and PoolSwapTest,
 * pools initialized without hooks, liquidity in one or several ranges, and swaps.
 *
 * PoolManager's runtime code is 24,009 bytes, under EIP-170's 24,576 (the artifact is the via-IR
 * build), so Hardhat's default contract size limit holds: hardhat.config.cjs needs no
 * allowUnlimitedContractSize; its `cancun` hardfork gives the transient storage (EIP-1153) V4 uses.
 *
 * For the demo seeder: `deployUniswapV4Manager` once per chain (a fresh deployer key makes the
 * PoolManager its nonce-0 contract, so the chain config's `uniswapV4PoolManager` is known in advance),
 * then `deployUniswapV4Pool({ manager, tokens, positions })` per pool; its `poolId` is the identifier
 * of a UNISWAP_V4 campaign (`abi.encode(bytes32 poolId, …)` as campaign data).
 */
import { createRequire } from 'node:module';
import { getAddress, maxUint256, zeroAddress } from 'viem';
import type { Abi, Address, Hex } from 'viem';
import { uniswapV4PoolId, type UniswapV4PoolKey } from '../domain/uniswapV4PoolId.js';
import { testErc20Abi } from './artifacts/index.js';
import { confirmed as send, createDevnetClients, type DevnetClients } from './clients.js';

const require = createRequire(import.meta.url);
type FoundryArtifact = { abi: Abi; bytecode: { object: Hex } };
const artifact = (name: string) => require(`@uniswap/v4-core/out/${name}.sol/${name}.json`) as FoundryArtifact;
const managerArtifact = artifact('PoolManager');
const modifyLiquidityArtifact = artifact('PoolModifyLiquidityTest');
const swapArtifact = artifact('PoolSwapTest');

/** ABI of the real PoolManager (initialize, extsload, the Initialize event, ...). */
export const uniswapV4PoolManagerAbi = managerArtifact.abi;

/** 2^96: sqrtPriceX96 of price 1 (one base unit of currency0 for one of currency1). */
export const SQRT_PRICE_1 = 2n ** 96n;
/** TickMath.MIN_SQRT_PRICE + 1 and MAX_SQRT_PRICE − 1: swap price limits that never bind. */
const SWAP_LIMIT_DOWN = 4295128739n + 1n;
const SWAP_LIMIT_UP = 1461446703485210103287273052203988822378723970342n - 1n;

export { uniswapV4PoolId, type UniswapV4PoolKey };

/** The devnet and the key that signs (default: hardhat #0). */
export type DevnetSigner = { rpcUrl: string; chainId: number; deployerKey?: Hex };

/** The singleton and the v4-core test routers that add liquidity and swap through it. */
export type DeployedUniswapV4Manager = { poolManager: Address; modifyLiquidityRouter: Address; swapRouter: Address };

/** Token amounts that moved into the PoolManager (negative: out of it), in base units. */
export type UniswapV4Amounts = { amount0: bigint; amount1: bigint };

/** One liquidity range: ticks multiples of the pool's tick spacing. */
export type UniswapV4Position = { tickLower: number; tickUpper: number; liquidity: bigint };

export type DeployUniswapV4PoolParams = DevnetSigner & {
  /** Reuses a PoolManager (several pools in one singleton); deploys one when absent. */
  manager?: DeployedUniswapV4Manager;
  /** The two pool tokens (TestERC20, minted to the deployer as needed), in any order. */
  tokens: [Address, Address];
  /** Static LP fee in hundredths of a bip (default 3000 = 0.3 %; 0 makes reserves move only by swaps). */
  fee?: number;
  tickSpacing?: number;
  sqrtPriceX96?: bigint;
  /** Liquidity added by the deployer, one modifyLiquidity call each (salt 0: same range adds up). */
  positions: UniswapV4Position[];
};

export type DeployedUniswapV4Pool = DeployedUniswapV4Manager & {
  poolId: Hex;
  poolKey: UniswapV4PoolKey;
  /** What the positions transferred into the PoolManager: its balance changes around each call. */
  deposited: UniswapV4Amounts;
};

/**
 * Deploys PoolManager (owner: the deployer), PoolModifyLiquidityTest and PoolSwapTest, in that order.
 */
export async function deployUniswapV4Manager(params: DevnetSigner): Promise<DeployedUniswapV4Manager> {
  const clients = createDevnetClients({ ...params, privateKey: params.deployerKey });
  const deploy = async ({ abi, bytecode }: FoundryArtifact, args: readonly unknown[]) =>
    getAddress(
      (await send(clients, clients.walletClient.deployContract({ abi, bytecode: bytecode.object, args })))
        .contractAddress!,
    );
  const poolManager = await deploy(managerArtifact, [clients.account.address]);
  const modifyLiquidityRouter = await deploy(modifyLiquidityArtifact, [poolManager]);
  const swapRouter = await deploy(swapArtifact, [poolManager]);
  return { poolManager, modifyLiquidityRouter, swapRouter };
}

/** Runs `action` and returns how much of each pool currency the PoolManager gained meanwhile. */
async function managerDelta(
  clients: DevnetClients,
  pool: { poolManager: Address; poolKey: UniswapV4PoolKey },
  action: () => Promise<unknown>,
): Promise<UniswapV4Amounts> {
  const balances = () =>
    Promise.all(
      [pool.poolKey.currency0, pool.poolKey.currency1].map(
        (token) =>
          clients.publicClient.readContract({
            address: token,
            abi: testErc20Abi,
            functionName: 'balanceOf',
            args: [pool.poolManager],
          }) as Promise<bigint>,
      ),
    );
  const before = await balances();
  await action();
  const after = await balances();
  return { amount0: after[0]! - before[0]!, amount1: after[1]! - before[1]! };
}

export type AddUniswapV4LiquidityParams = DevnetSigner & {
  pool: DeployedUniswapV4Manager & { poolKey: UniswapV4PoolKey };
  position: UniswapV4Position;
};

/**
 * Adds one position through PoolModifyLiquidityTest, paid by the deployer, who must hold both tokens
 * and have approved the router (deployUniswapV4Pool does both for its own deployer).
 * @returns what it transferred into the PoolManager.
 */
export async function addUniswapV4Liquidity(params: AddUniswapV4LiquidityParams): Promise<UniswapV4Amounts> {
  const clients = createDevnetClients({ ...params, privateKey: params.deployerKey });
  const { pool, position } = params;
  return managerDelta(clients, pool, () =>
    send(
      clients,
      clients.walletClient.writeContract({
        address: pool.modifyLiquidityRouter,
        abi: modifyLiquidityArtifact.abi,
        functionName: 'modifyLiquidity',
        args: [
          pool.poolKey,
          {
            tickLower: position.tickLower,
            tickUpper: position.tickUpper,
            liquidityDelta: position.liquidity,
            salt: `0x${'0'.repeat(64)}`,
          },
          '0x',
        ],
      }),
    ),
  );
}

export type SwapUniswapV4Params = DevnetSigner & {
  pool: DeployedUniswapV4Manager & { poolKey: UniswapV4PoolKey };
  /** true sells currency0 (the price goes down), false sells currency1. */
  zeroForOne: boolean;
  /** Exact input in base units of the currency sold. */
  amountIn: bigint;
};

/**
 * Swaps an exact input through PoolSwapTest (no price limit), paid by the deployer (approved as for
 * addUniswapV4Liquidity).
 * @returns the PoolManager's balance changes: + the input currency, − the output.
 */
export async function swapUniswapV4(params: SwapUniswapV4Params): Promise<UniswapV4Amounts> {
  const clients = createDevnetClients({ ...params, privateKey: params.deployerKey });
  const { pool, zeroForOne, amountIn } = params;
  return managerDelta(clients, pool, () =>
    send(
      clients,
      clients.walletClient.writeContract({
        address: pool.swapRouter,
        abi: swapArtifact.abi,
        functionName: 'swap',
        args: [
          pool.poolKey,
          // A negative amountSpecified is an exact input (IPoolManager.SwapParams).
          { zeroForOne, amountSpecified: -amountIn, sqrtPriceLimitX96: zeroForOne ? SWAP_LIMIT_DOWN : SWAP_LIMIT_UP },
          { takeClaims: false, settleUsingBurn: false },
          '0x',
        ],
      }),
    ),
  );
}

/**
 * Initializes a pool of two TestERC20 tokens (sorted into currency0 < currency1, no hooks) on the
 * given or a new PoolManager, mints both tokens to the deployer, approves both routers and adds each
 * position.
 * @returns the manager and routers, the pool's id and key, and what the positions deposited.
 */
export async function deployUniswapV4Pool(params: DeployUniswapV4PoolParams): Promise<DeployedUniswapV4Pool> {
  const { tokens, fee = 3000, tickSpacing = 60, sqrtPriceX96 = SQRT_PRICE_1 } = params;
  const manager = params.manager ?? (await deployUniswapV4Manager(params));
  const clients = createDevnetClients({ ...params, privateKey: params.deployerKey });
  const { walletClient: wallet, account } = clients;
  const [currency0, currency1] = [...tokens].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1)) as [
    Address,
    Address,
  ];
  const poolKey = { currency0, currency1, fee, tickSpacing, hooks: zeroAddress };
  await send(
    clients,
    wallet.writeContract({
      address: manager.poolManager,
      abi: managerArtifact.abi,
      functionName: 'initialize',
      args: [poolKey, sqrtPriceX96],
    }),
  );
  for (const token of [currency0, currency1]) {
    // Far more than any position needs: the routers pull only what the PoolManager asks for.
    await send(
      clients,
      wallet.writeContract({
        address: token,
        abi: testErc20Abi,
        functionName: 'mint',
        args: [account.address, 10n ** 36n],
      }),
    );
    for (const router of [manager.modifyLiquidityRouter, manager.swapRouter])
      await send(
        clients,
        wallet.writeContract({
          address: token,
          abi: testErc20Abi,
          functionName: 'approve',
          args: [router, maxUint256],
        }),
      );
  }
  const pool = { ...manager, poolId: uniswapV4PoolId(poolKey), poolKey, deposited: { amount0: 0n, amount1: 0n } };
  for (const position of params.positions) {
    const { amount0, amount1 } = await addUniswapV4Liquidity({ ...params, pool, position });
    pool.deposited = { amount0: pool.deposited.amount0 + amount0, amount1: pool.deposited.amount1 + amount1 };
  }
  return pool;
}
