/**
 * The real Aave V3 AToken (the @aave/core-v3 1.19.3 published artifact) on a devnet, against
 * AaveV3PoolStandIn (contracts/src/AaveV3PoolStandIn.sol): the real Pool needs its addresses provider,
 * ACL manager, configurator and linked logic libraries, too heavy for a test, and the AToken asks its
 * pool only for `ADDRESSES_PROVIDER()`, `getReserveNormalizedIncome(asset)` and to be the minter.
 */
import { createRequire } from 'node:module';
import { getAddress, maxUint256 } from 'viem';
import type { Abi, Address, Hex } from 'viem';
import { aaveV3PoolStandInAbi, aaveV3PoolStandInBytecode, testErc20Abi } from './artifacts/index.js';
import { confirmed as send, createDevnetClients } from './clients.js';

const require = createRequire(import.meta.url);
type HardhatArtifact = { abi: Abi; bytecode: Hex };
const aTokenArtifact =
  require('@aave/core-v3/artifacts/contracts/protocol/tokenization/AToken.sol/AToken.json') as HardhatArtifact;

/** ABI of the real AToken (UNDERLYING_ASSET_ADDRESS, POOL, totalSupply, scaledTotalSupply, ...). */
export const aTokenAbi = aTokenArtifact.abi;

export type DeployAaveV3ATokenParams = {
  rpcUrl: string;
  chainId: number;
  /** A TestERC20 (minted to the deployer, then supplied). */
  underlying: Address;
  underlyingDecimals: number;
  /** Underlying base units supplied by the deployer. */
  supplyAssets: bigint;
  /** The reserve's normalized income (a ray, 1e27 = no interest yet) set after the supply. */
  normalizedIncome?: bigint;
};

export type DeployedAaveV3AToken = { aToken: Address; pool: Address };

/**
 * Deploys the stand-in pool and the real AToken, initializes the AToken for `underlying` (treasury
 * the deployer, no incentives controller), supplies `supplyAssets` through the pool and sets the
 * normalized income, so `totalSupply()` = supplied × income / 1e27.
 */
export async function deployAaveV3AToken(params: DeployAaveV3ATokenParams): Promise<DeployedAaveV3AToken> {
  const { rpcUrl, chainId, underlying, underlyingDecimals, supplyAssets } = params;
  const clients = createDevnetClients({ rpcUrl, chainId });
  const { walletClient: wallet, account } = clients;
  const deploy = async (abi: Abi, bytecode: Hex, args: readonly unknown[]) =>
    getAddress((await send(clients, wallet.deployContract({ abi, bytecode, args }))).contractAddress!);
  const pool = await deploy(aaveV3PoolStandInAbi as Abi, aaveV3PoolStandInBytecode, [account.address]);
  const aToken = await deploy(aTokenAbi, aTokenArtifact.bytecode, [pool]);
  const write = (address: Address, abi: Abi, functionName: string, args: readonly unknown[]) =>
    send(clients, wallet.writeContract({ address, abi, functionName, args }));
  await write(aToken, aTokenAbi, 'initialize', [
    pool,
    account.address,
    underlying,
    '0x0000000000000000000000000000000000000000',
    underlyingDecimals,
    'Aave Test Token',
    'aTEST',
    '0x',
  ]);
  await write(underlying, testErc20Abi as Abi, 'mint', [account.address, supplyAssets]);
  await write(underlying, testErc20Abi as Abi, 'approve', [pool, maxUint256]);
  await write(pool, aaveV3PoolStandInAbi as Abi, 'supply', [underlying, aToken, supplyAssets]);
  if (params.normalizedIncome !== undefined)
    await write(pool, aaveV3PoolStandInAbi as Abi, 'setNormalizedIncome', [params.normalizedIncome]);
  return { aToken, pool };
}
