import { getContractAddress } from 'viem';
import type { ChainConfig } from './chainConfig.js';

/** Hardhat's public test account #0, which deploys our contracts on every devnet. */
export const DEVNET_DEPLOYER = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' as const;

/** The two local devnets the quick start runs (chain ids 31337 and 31338). */
export const DEVNETS = [
  { id: 31337, name: 'Devnet Alpha', port: 8545 },
  { id: 31338, name: 'Devnet Beta', port: 8546 },
] as const;

const at = (nonce: number) => getContractAddress({ from: DEVNET_DEPLOYER, nonce: BigInt(nonce) });

/**
 * Deterministic devnet addresses (contracts/deploy.ts order from nonce 0): Distributor,
 * DistributionCreator, reward tokens RWD/USDCx/PTS, targets stTST/TLP, one price feed per reward token.
 */
export const DEVNET_ADDRESSES = {
  distributor: at(0),
  distributionCreator: at(1),
  rewardTokens: [at(2), at(3), at(4)],
  targetTokens: [at(5), at(6)],
  priceFeeds: [at(7), at(8), at(9)],
} as const;

/** The demo's pre-TGE reward token: deployed by hardhat account #1 at nonce 0 (scripts/seedDemo.ts). */
export const DEVNET_PRETGE_TOKEN = getContractAddress({
  from: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  nonce: 0n,
});

/** Flags of the devnet tokens: RWD and USDCx verified (USDCx a stablecoin), PTS a point token. */
export const DEVNET_TOKEN_FLAGS = [
  { address: DEVNET_ADDRESSES.rewardTokens[0], verified: true, icon: 'https://icons.invalid/tokens/rwd.svg' },
  {
    address: DEVNET_ADDRESSES.rewardTokens[1],
    verified: true,
    stablecoin: true,
    icon: 'https://icons.invalid/tokens/usdc.svg',
    displaySymbol: 'USDC',
  },
  { address: DEVNET_ADDRESSES.rewardTokens[2], type: 'POINT' as const, icon: 'https://icons.invalid/tokens/pts.svg' },
  { address: DEVNET_ADDRESSES.targetTokens[0], verified: true },
  { address: DEVNET_ADDRESSES.targetTokens[1], verified: true },
  { address: DEVNET_PRETGE_TOKEN, type: 'PRETGE' as const },
];

/**
 * Default chain configuration: our devnets, with contract addresses that are deterministic because
 * contracts/deploy.ts deploys from account #0 in a fixed order on a fresh chain (Distributor at
 * nonce 0, DistributionCreator at nonce 1).
 */
export function devnetChains(ports: readonly number[] = DEVNETS.map((d) => d.port)): ChainConfig[] {
  return DEVNETS.map((d, i) => ({
    id: d.id,
    name: d.name,
    icon: `https://icons.invalid/chains/${d.id}.svg`,
    rpcUrl: `http://127.0.0.1:${ports[i] ?? d.port}`,
    distributor: DEVNET_ADDRESSES.distributor,
    distributionCreator: DEVNET_ADDRESSES.distributionCreator,
    startBlock: 0,
    confirmations: 0,
    test: false,
    explorers: [{ type: 'BLOCKSCOUT' as const, url: `http://127.0.0.1:${ports[i] ?? d.port}/explorer` }],
    nativeToken: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    priceFeeds: Object.fromEntries(
      DEVNET_ADDRESSES.rewardTokens.map((token, k) => [token.toLowerCase(), DEVNET_ADDRESSES.priceFeeds[k]!]),
    ),
    tokens: DEVNET_TOKEN_FLAGS,
  }));
}
