/** The shape of one indexed chain's settings (validated by internal/config.ts, defaulted by internal/devnetChains.ts). */

export type ExplorerConfig = { type: 'ETHERSCAN' | 'BLOCKSCOUT' | 'SOLSCAN'; url: string };

/** One indexed chain: where its RPC is, which contracts to read, how far behind the head is final. */
export type ChainConfig = {
  id: number;
  name: string;
  icon: string;
  rpcUrl: string;
  distributionCreator: `0x${string}`;
  distributor: `0x${string}`;
  startBlock: number;
  confirmations: number;
  test: boolean;
  explorers: ExplorerConfig[];
  /** The chain's native token (gas token), served as a Token with isNative true. */
  nativeToken: { name: string; symbol: string; decimals: number };
  /** On-chain Chainlink-compatible USD price feeds: token address → feed address. */
  priceFeeds: Record<string, `0x${string}`>;
  /**
   * Address of the Morpho Blue singleton on this chain: MORPHO opportunities whose identifier is a
   * market id (bytes32) read their TVL from it (docs/api-behaviour.md#tvl-per-protocol); unset, they have none.
   */
  morphoBlue?: `0x${string}`;
  /**
   * Address of the Uniswap V4 PoolManager singleton on this chain: UNISWAP_V4 opportunities whose
   * identifier is a pool id (bytes32) read their TVL from it (docs/api-behaviour.md#tvl-per-protocol);
   * unset, they have none.
   */
  uniswapV4PoolManager?: `0x${string}`;
  /** Chain key of this chain in the HTTP price API (`<key>:<address>`); default `chain-<id>`. */
  priceApiChain?: string;
  /** Operator-maintained token flags, applied by the tokens job. */
  tokens: TokenFlagsConfig[];
};

export type TokenFlagsConfig = {
  address: `0x${string}`;
  type?: 'TOKEN' | 'PRETGE' | 'POINT';
  verified?: boolean;
  isTest?: boolean;
  stablecoin?: boolean;
  icon?: string;
  displaySymbol?: string;
};
