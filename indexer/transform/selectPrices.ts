import type { PriceMap } from '../fetch/prices/types.js';

/**
 * Pure: for each token, the quote of the first source in priority order that priced it (on-chain
 * feed first, then the HTTP API). Tokens no source priced are left out.
 * @param results each source's prices, highest priority first.
 */
export function selectPrices(results: readonly PriceMap[]): PriceMap {
  const selected: PriceMap = new Map();
  for (const prices of results) {
    for (const [tokenId, quote] of prices) if (!selected.has(tokenId)) selected.set(tokenId, quote);
  }
  return selected;
}
