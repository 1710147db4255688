/**
 * What the explorer shows for an opportunity's TVL: the served figure when it is known, else
 * "unknown" with the reason in words (tvlRecord.status, docs/api-behaviour.md#unknown-tvl). The API
 * serves an unknown TVL as 0 (the contract types it as a number), so the status, not the figure,
 * says whether 0 means nothing deposited or nothing known.
 */
const REASONS: Record<string, string> = {
  'unsupported-target': 'its target cannot be read on this chain',
  'read-failed': 'reading it from the protocol failed',
  unpriced: 'a token it holds has no price',
  'not-computed': 'not computed yet',
};

/** Pure: null when the TVL is known (status `ok`, or absent from an older document), else why not in words. */
export function unknownTvlReason(status: string | undefined): string | null {
  if (status === undefined || status === 'ok') return null;
  return REASONS[status] ?? status;
}
