/**
 * Why an opportunity's native APR (the protocol's own yield) is known or not: `nativeAprRecord.status`
 * (#42, docs/api-behaviour.md#native-apr). A closed set: `ok` (read from the protocol); `unsupported-target`
 * (no native yield is read for its type: a plain ERC20, a Uniswap or Aave position, a Morpho market on a
 * chain without `morphoBlue`); `read-failed` (the protocol's reads reverted or the node failed them);
 * `no-history` (an ERC4626 vault on a chain with no stored block a day old to compare its share price
 * with); `not-computed` (no metrics run has stored it yet). Every status but `ok` means `nativeApr` is
 * unknown: it stays 0 as the contract types it, never read as "no yield".
 */
export const NATIVE_APR_STATUSES = ['ok', 'unsupported-target', 'read-failed', 'no-history', 'not-computed'] as const;
export type NativeAprStatus = (typeof NATIVE_APR_STATUSES)[number];
