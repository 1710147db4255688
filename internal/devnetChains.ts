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

/** Hardhat's public test account #2, which deploys the demo's market tokens (scripts/seedDemo.ts). */
const DEMO_MARKET_DEPLOYER = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC' as const;

/** The i-th demo market token on any fresh devnet: account #2 deploys and mints each (nonces 2i, 2i+1). */
export function devnetDemoMarketToken(i: number): `0x${string}` {
  return getContractAddress({ from: DEMO_MARKET_DEPLOYER, nonce: BigInt(2 * i) });
}

/** Number of demo market tokens (scripts/seedDemo.ts DEMO_MARKETS). */
export const DEVNET_DEMO_MARKET_COUNT = 16;

/**
 * Hardhat's public test account #10, which deploys the demo's real protocol contracts (Morpho Blue at
 * its nonce 0, then the Uniswap V3 factory, pools and positions, then the Uniswap V4 PoolManager, its
 * pools and positions: scripts/seedDemoProtocols.ts).
 */
export const DEVNET_PROTOCOL_DEPLOYER = '0xBcd4042DE499D14e55001CcbB24a551F3b954096' as const;

/** The demo's Morpho Blue singleton: account #10's first deployment (the chain config's `morphoBlue`). */
export const DEVNET_MORPHO_BLUE = getContractAddress({ from: DEVNET_PROTOCOL_DEPLOYER, nonce: 0n });

/**
 * Account #10's nonce when it deploys the demo's Uniswap V4 PoolManager, after its Morpho Blue and
 * Uniswap V3 transactions for the demo's fixed markets (scripts/seedDemoProtocols.ts): Morpho Blue and
 * its mocks 5, three Morpho markets 4 each, the V3 factory and minter 2, three V3 pools 9 + 8 + 8.
 */
export const DEVNET_UNISWAP_V4_POOL_MANAGER_NONCE = 44;

/** The demo's Uniswap V4 PoolManager (the chain config's `uniswapV4PoolManager`), checked when the demo deploys it. */
export const DEVNET_UNISWAP_V4_POOL_MANAGER = getContractAddress({
  from: DEVNET_PROTOCOL_DEPLOYER,
  nonce: BigInt(DEVNET_UNISWAP_V4_POOL_MANAGER_NONCE),
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
    // A devnet has no block explorer: its RPC port answers JSON-RPC only (a page there is a parse error), so no link.
    explorers: [],
    nativeToken: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    priceFeeds: Object.fromEntries(
      DEVNET_ADDRESSES.rewardTokens.map((token, k) => [token.toLowerCase(), DEVNET_ADDRESSES.priceFeeds[k]!]),
    ),
    morphoBlue: DEVNET_MORPHO_BLUE,
    uniswapV4PoolManager: DEVNET_UNISWAP_V4_POOL_MANAGER,
    // The demo's market tokens, stored and priced whether or not a campaign targets them: the demo's
    // pools and Morpho markets hold them (their TVL is priced in them).
    tokens: [
      ...DEVNET_TOKEN_FLAGS,
      ...Array.from({ length: DEVNET_DEMO_MARKET_COUNT }, (_, i) => ({ address: devnetDemoMarketToken(i) })),
    ],
  }));
}
