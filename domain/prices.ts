export type IsStaleParams = { updatedAt: Date; now: Date; maxAgeSeconds: number };

/**
 * Pure: a price is stale when it is older than `maxAgeSeconds` (exactly `maxAgeSeconds` old is
 * still fresh). A price stamped in the future (clock skew between us and the source) is fresh.
 */
export function isStale({ updatedAt, now, maxAgeSeconds }: IsStaleParams): boolean {
  return now.getTime() - updatedAt.getTime() > maxAgeSeconds * 1000;
}

/** A stored price as loadTokenPrices returns it (updatedAt in Unix seconds). */
export type StoredPrice = { price: number; updatedAt: number; priceSource: string; stale: boolean };

/** The Token price fields the API serves (`price`, `updatedAt`, `priceSource`). */
export type ServedPrice = { price: number | null; updatedAt: number | null; priceSource: string | null };

/**
 * Pure: the rule the API applies to a stored price. A stale price is served as `price: null`
 * (never as if it were current), keeping `updatedAt` and `priceSource` so clients can see how old
 * the last price is and where it came from; a token never priced is all null.
 */
export function toServedPrice(stored: StoredPrice | undefined): ServedPrice {
  if (!stored) return { price: null, updatedAt: null, priceSource: null };
  return { price: stored.stale ? null : stored.price, updatedAt: stored.updatedAt, priceSource: stored.priceSource };
}
