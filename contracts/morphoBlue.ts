/**
 * The real Morpho Blue (contracts/artifacts/morpho-blue, compiled by contracts/buildMorphoBlue.ts) on a
 * devnet: the singleton, an IRM and an oracle mock enabled, one market created and supplied.
 */
import { encodeAbiParameters, getAddress, keccak256, maxUint256 } from 'viem';
import type { Abi, Address, Hex } from 'viem';
import { testErc20Abi } from './artifacts/index.js';
import {
  irmMockAbi,
  irmMockBytecode,
  morphoAbi,
  morphoBytecode,
  oracleMockAbi,
  oracleMockBytecode,
} from './artifacts/morpho-blue/index.js';
import { confirmed as send, createDevnetClients, type DevnetClients } from './clients.js';

export { morphoAbi };

export type MorphoMarketParams = {
  loanToken: Address;
  collateralToken: Address;
  oracle: Address;
  irm: Address;
  lltv: bigint;
};

/** A market's id as Morpho computes it (MarketParamsLib.id): keccak256 of the five ABI-encoded params. */
export function morphoMarketId(p: MorphoMarketParams): Hex {
  return keccak256(
    encodeAbiParameters(
      [{ type: 'address' }, { type: 'address' }, { type: 'address' }, { type: 'address' }, { type: 'uint256' }],
      [p.loanToken, p.collateralToken, p.oracle, p.irm, p.lltv],
    ),
  );
}

export type DeployMorphoBlueMarketParams = {
  rpcUrl: string;
  chainId: number;
  loanToken: Address;
  collateralToken: Address;
  /** Loan-token base units supplied by the deployer (minted to it first: TestERC20). */
  supplyAssets: bigint;
  lltv?: bigint;
  /** Morpho is its first deployment: a fresh key gives an address known in advance (nonce 0). */
  deployerKey?: Hex;
};

export type DeployedMorphoBlueMarket = { morpho: Address; marketId: Hex; marketParams: MorphoMarketParams };

/**
 * Deploys Morpho (owner: the account of `clients`; its next three transactions), IrmMock and OracleMock,
 * and enables the IRM and `lltv`: what any market on it needs.
 */
export async function deployMorphoBlue(
  clients: DevnetClients,
  lltv: bigint,
): Promise<{ morpho: Address; irm: Address; oracle: Address }> {
  const { walletClient: wallet, account } = clients;
  const deploy = async (abi: Abi, bytecode: Hex, args: readonly unknown[]) =>
    getAddress((await send(clients, wallet.deployContract({ abi, bytecode, args }))).contractAddress!);
  const morpho = await deploy(morphoAbi, morphoBytecode, [account.address]);
  const irm = await deploy(irmMockAbi, irmMockBytecode, []);
  const oracle = await deploy(oracleMockAbi, oracleMockBytecode, []);
  await send(
    clients,
    wallet.writeContract({ address: morpho, abi: morphoAbi, functionName: 'enableIrm', args: [irm] }),
  );
  await send(
    clients,
    wallet.writeContract({ address: morpho, abi: morphoAbi, functionName: 'enableLltv', args: [lltv] }),
  );
  return { morpho, irm, oracle };
}

/**
 * Deploys Morpho Blue with its mocks (deployMorphoBlue), creates
 * the market and supplies `supplyAssets` of the loan token.
 */
export async function deployMorphoBlueMarket(params: DeployMorphoBlueMarketParams): Promise<DeployedMorphoBlueMarket> {
  const { rpcUrl, chainId, loanToken, collateralToken, supplyAssets, lltv = 860_000_000_000_000_000n } = params;
  const clients = createDevnetClients({ rpcUrl, chainId, privateKey: params.deployerKey });
  const { walletClient: wallet, account } = clients;
  const { morpho, irm, oracle } = await deployMorphoBlue(clients, lltv);
  const marketParams = { loanToken, collateralToken, oracle, irm, lltv };
  await send(
    clients,
    wallet.writeContract({ address: morpho, abi: morphoAbi, functionName: 'createMarket', args: [marketParams] }),
  );
  await send(
    clients,
    wallet.writeContract({
      address: loanToken,
      abi: testErc20Abi,
      functionName: 'mint',
      args: [account.address, supplyAssets],
    }),
  );
  await send(
    clients,
    wallet.writeContract({
      address: loanToken,
      abi: testErc20Abi,
      functionName: 'approve',
      args: [morpho, maxUint256],
    }),
  );
  await send(
    clients,
    wallet.writeContract({
      address: morpho,
      abi: morphoAbi,
      functionName: 'supply',
      args: [marketParams, supplyAssets, 0n, account.address, '0x'],
    }),
  );
  return { morpho, marketId: morphoMarketId(marketParams), marketParams };
}
