/**
 * Why an opportunity's TVL is known or not: `tvlRecord.status` and `opportunity_metrics.tvl_status`
 * (#42, docs/api-behaviour.md#unknown-tvl). A closed set: `ok` (read and priced); `unsupported-target`
 * (the identifier is not something its type can be read from on this chain: not an address, a Morpho
 * market id on a chain without `morphoBlue`); `read-failed` (the target's reads reverted or it is no
 * such contract/market); `unpriced` (read, but a token of it has no fresh price); `not-computed` (no
 * metrics run yet). Every status but `ok` means the TVL is unknown: null where the contract allows it.
 */
export const TVL_STATUSES = ['ok', 'unsupported-target', 'read-failed', 'unpriced', 'not-computed'] as const;
export type TvlStatus = (typeof TVL_STATUSES)[number];
