/**
 * ABI layouts of `campaignData` per campaign type (docs/contracts.md#campaign-data-encodings), shared by the decoder
 * (indexer) and the encoders (payload building, devnet seeding) so both always agree.
 */

/** Type 1 ERC20 / token holding, current (2024-12 →): 7 head words. */
export const ERC20_LAYOUT = [
  { name: 'targetToken', type: 'address' },
  { name: 'whitelist', type: 'address[]' },
  { name: 'blacklist', type: 'address[]' },
  { name: 'url', type: 'string' },
  { name: 'forwarders', type: 'bytes[]' },
  { name: 'hooks', type: 'bytes[]' },
  { name: 'extraData', type: 'bytes' },
] as const;

/** Type 1 ERC20, older (2024 Safe template): 5 head words. */
export const ERC20_LEGACY_LAYOUT = [
  { name: 'targetToken', type: 'address' },
  { name: 'whitelist', type: 'address[]' },
  { name: 'blacklist', type: 'address[]' },
  { name: 'url', type: 'string' },
  { name: 'forwarders', type: 'bytes[]' },
] as const;

/**
 * Type 2 CLAMM pool, current: 7 static head words then 5 dynamic fields (their types inferred,
 * docs/contracts.md#campaign-data-encodings). Weights are in base 10 000; the out-of-range flag is 0 or 1.
 */
export const CLAMM_LAYOUT = [
  { name: 'pool', type: 'address' },
  { name: 'weightFees', type: 'uint32' },
  { name: 'weightToken0', type: 'uint32' },
  { name: 'weightToken1', type: 'uint32' },
  { name: 'isOutOfRangeIncentivized', type: 'uint32' },
  { name: 'boostingAddress', type: 'address' },
  { name: 'boostedReward', type: 'uint32' },
  { name: 'whitelist', type: 'address[]' },
  { name: 'blacklist', type: 'address[]' },
  { name: 'url', type: 'string' },
  { name: 'forwarders', type: 'bytes[]' },
  { name: 'hooks', type: 'bytes[]' },
] as const;

/** Cross-chain wrapper: `abi.encode(uint32 computeChainId, bytes inner) ++ 0xc0c0c0c0`. */
export const CROSS_CHAIN_LAYOUT = [
  { name: 'computeChainId', type: 'uint32' },
  { name: 'inner', type: 'bytes' },
] as const;
export const CROSS_CHAIN_SUFFIX = 'c0c0c0c0';
