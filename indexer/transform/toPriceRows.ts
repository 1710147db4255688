import { isStale } from '../../domain/prices.js';
import type { PriceMap } from '../fetch/prices/types.js';

/** A row of token_prices (current price per token). */
export type TokenPriceRow = { tokenId: string; price: number; priceSource: string; updatedAt: Date; fetchedAt: Date };

/** One observation folded into token_price_history: `day` is the UTC date (YYYY-MM-DD) of the price's own time. */
export type PriceHistoryRow = { tokenId: string; day: string; price: number; source: string; updatedAt: Date };

export type ToPriceRowsParams = { selected: PriceMap; fetchedAt: Date; maxAgeSeconds: number };
export type ToPriceRowsResult = { prices: TokenPriceRow[]; history: PriceHistoryRow[]; stale: string[] };

/**
 * Pure: selected quotes → token_prices rows and history observations, plus the ids of tokens
 * whose price is already stale when fetched (stored all the same, with their own time, so that
 * readers see them as stale rather than missing). Rows come sorted by token id.
 */
export function toPriceRows({ selected, fetchedAt, maxAgeSeconds }: ToPriceRowsParams): ToPriceRowsResult {
  const entries = [...selected].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    prices: entries.map(([tokenId, q]) => ({
      tokenId,
      price: q.price,
      priceSource: q.source,
      updatedAt: q.updatedAt,
      fetchedAt,
    })),
    history: entries.map(([tokenId, q]) => ({
      tokenId,
      day: q.updatedAt.toISOString().slice(0, 10),
      price: q.price,
      source: q.source,
      updatedAt: q.updatedAt,
    })),
    stale: entries
      .filter(([, q]) => isStale({ updatedAt: q.updatedAt, now: fetchedAt, maxAgeSeconds }))
      .map(([tokenId]) => tokenId),
  };
}
