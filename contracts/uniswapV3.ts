/**
 * The real Uniswap V3 core (the @uniswap/v3-core 1.0.1 compiled artifacts) on a devnet: a factory, a
 * pool of two tokens initialized at a price, and liquidity added through UniswapV3Minter (the pool
 * pays itself through a mint callback, as the periphery's position manager does).
 */
import { createRequire } from 'node:module';
import { getAddress, maxUint256 } from 'viem';
import type { Abi, Address, Hex } from 'viem';
import { testErc20Abi, uniswapV3MinterAbi, uniswapV3MinterBytecode } from './artifacts/index.js';
import { confirmed as send, createDevnetClients } from './clients.js';

const require = createRequire(import.meta.url);
type HardhatArtifact = { abi: Abi; bytecode: Hex };
const factoryArtifact =
  require('@uniswap/v3-core/artifacts/contracts/UniswapV3Factory.sol/UniswapV3Factory.json') as HardhatArtifact;
const poolArtifact =
  require('@uniswap/v3-core/artifacts/contracts/UniswapV3Pool.sol/UniswapV3Pool.json') as HardhatArtifact;

/** ABI and creation code of the real UniswapV3Factory (createPool, getPool, ...). */
export const uniswapV3FactoryAbi = factoryArtifact.abi;
export const uniswapV3FactoryBytecode = factoryArtifact.bytecode;

/** ABI of the real UniswapV3Pool (token0, token1, slot0, liquidity, mint, ...). */
export const uniswapV3PoolAbi = poolArtifact.abi;

/** 2^96: sqrtPriceX96 of price 1 (one base unit of token0 for one of token1). */
export const SQRT_PRICE_1 = 2n ** 96n;

export type DeployUniswapV3PoolParams = {
  rpcUrl: string;
  chainId: number;
  /** The two pool tokens (TestERC20, minted to the deployer as needed); sorted into token0/token1 by the factory. */
  tokens: [Address, Address];
  /** Fee tier in hundredths of a bip (3000 = 0.3 %, tick spacing 60). */
  fee?: number;
  sqrtPriceX96?: bigint;
  /** Liquidity of one position of the deployer in [tickLower, tickUpper). */
  liquidity: bigint;
  tickLower?: number;
  tickUpper?: number;
  deployerKey?: Hex;
};

export type DeployedUniswapV3Pool = {
  factory: Address;
  pool: Address;
  minter: Address;
  token0: Address;
  token1: Address;
};

/**
 * Deploys UniswapV3Factory and UniswapV3Minter, creates and initializes the pool, mints enough of both
 * tokens to the deployer, approves the minter and adds one position.
 * @returns the addresses, token0/token1 as the pool orders them.
 */
export async function deployUniswapV3Pool(params: DeployUniswapV3PoolParams): Promise<DeployedUniswapV3Pool> {
  const { rpcUrl, chainId, tokens, fee = 3000, sqrtPriceX96 = SQRT_PRICE_1, liquidity } = params;
  const { tickLower = -600, tickUpper = 600 } = params;
  const clients = createDevnetClients({ rpcUrl, chainId, privateKey: params.deployerKey });
  const { walletClient: wallet, publicClient } = clients;
  const deploy = async (abi: Abi, bytecode: Hex) => {
    const receipt = await send(clients, wallet.deployContract({ abi, bytecode, args: [] }));
    return getAddress(receipt.contractAddress!);
  };
  const factory = await deploy(factoryArtifact.abi, factoryArtifact.bytecode);
  const minter = await deploy(uniswapV3MinterAbi, uniswapV3MinterBytecode);
  await send(
    clients,
    wallet.writeContract({
      address: factory,
      abi: factoryArtifact.abi,
      functionName: 'createPool',
      args: [...tokens, fee],
    }),
  );
  const pool = getAddress(
    (await publicClient.readContract({
      address: factory,
      abi: factoryArtifact.abi,
      functionName: 'getPool',
      args: [...tokens, fee],
    })) as Address,
  );
  await send(
    clients,
    wallet.writeContract({ address: pool, abi: poolArtifact.abi, functionName: 'initialize', args: [sqrtPriceX96] }),
  );
  for (const token of tokens) {
    // Far more than any position needs: the minter pulls only what the pool asks for.
    await send(
      clients,
      wallet.writeContract({
        address: token,
        abi: testErc20Abi,
        functionName: 'mint',
        args: [clients.account.address, 10n ** 36n],
      }),
    );
    await send(
      clients,
      wallet.writeContract({ address: token, abi: testErc20Abi, functionName: 'approve', args: [minter, maxUint256] }),
    );
  }
  await send(
    clients,
    wallet.writeContract({
      address: minter,
      abi: uniswapV3MinterAbi,
      functionName: 'mint',
      args: [pool, tickLower, tickUpper, liquidity],
    }),
  );
  const read = (functionName: 'token0' | 'token1') =>
    publicClient.readContract({ address: pool, abi: poolArtifact.abi, functionName }) as Promise<Address>;
  return { factory, pool, minter, token0: getAddress(await read('token0')), token1: getAddress(await read('token1')) };
}

export type SwapUniswapV3ExactInParams = {
  rpcUrl: string;
  chainId: number;
  /** The UniswapV3Minter of deployUniswapV3Pool (approved by the swapper for the input token). */
  minter: Address;
  pool: Address;
  /** token0 in for token1 out, else token1 in for token0 out. */
  zeroForOne: boolean;
  /** Exactly this much of the input token (base units) goes into the pool, the fee included. */
  amountIn: bigint;
  swapperKey?: Hex;
};

/**
 * Swaps exactly `amountIn` through UniswapV3Minter (the pool calls back for the input, paid from the
 * swapper's approved balance; the output goes to the swapper), with no price limit but TickMath's bounds:
 * keep it small against the pool's liquidity to stay in range. The pool takes its fee (fee / 1e6 of
 * `amountIn`, rounded up) from the input token.
 * @returns the pool's deltas (positive: paid in, negative: paid out), as simulated at the swap's block.
 */
export async function swapUniswapV3ExactIn(
  params: SwapUniswapV3ExactInParams,
): Promise<{ amount0: bigint; amount1: bigint }> {
  const { rpcUrl, chainId, minter, pool, zeroForOne, amountIn } = params;
  const clients = createDevnetClients({ rpcUrl, chainId, privateKey: params.swapperKey });
  const { request, result } = await clients.publicClient.simulateContract({
    account: clients.account,
    address: minter,
    abi: uniswapV3MinterAbi,
    functionName: 'swap',
    args: [pool, zeroForOne, amountIn],
  });
  await send(clients, clients.walletClient.writeContract(request));
  const [amount0, amount1] = result as readonly [bigint, bigint];
  return { amount0, amount1 };
}
