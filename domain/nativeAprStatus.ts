/**
 * Why an opportunity's native APR (the protocol's own yield) is known or not: `nativeAprRecord.status`
 * (#42, docs/api-behaviour.md#native-apr). A closed set: `ok` (read from the protocol); `unsupported-target`
 * (no native yield is read for its type: a plain ERC20, a Uniswap V4 or Aave position, a Morpho market on a
 * chain without `morphoBlue`); `read-failed` (the protocol's reads reverted or the node failed them);
 * `no-history` (an ERC4626 vault or a Uniswap V3 pool on a chain with no stored block a day old to
 * compare with, or one that did not exist then); `unpriced` (a pool's fees were read, but a token of it has
 * no fresh price or its TVL is unknown or 0); `not-computed` (no metrics run has stored it yet). Every status but `ok` means `nativeApr` is
 * unknown: it stays 0 as the contract types it, never read as "no yield".
 */
export const NATIVE_APR_STATUSES = [
  'ok',
  'unsupported-target',
  'read-failed',
  'no-history',
  'unpriced',
  'not-computed',
] as const;
export type NativeAprStatus = (typeof NATIVE_APR_STATUSES)[number];
