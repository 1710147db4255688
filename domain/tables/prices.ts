import { isStale, type StoredPrice } from '../prices.js';
import type { Queryable } from '../../internal/pg.js';

/**
 * Current prices of `tokenIds`, each with its own time (Unix seconds), source and whether it is
 * stale at `now` (older than `maxAgeSeconds`, see isStale). A stale price is returned as is with
 * `stale: true`: consumers decide; the API serves it through toServedPrice (price null, updatedAt
 * and priceSource kept). Tokens never priced are absent from the map.
 */
export async function loadTokenPrices(
  db: Queryable,
  tokenIds: readonly string[],
  now: Date,
  maxAgeSeconds: number,
): Promise<Map<string, StoredPrice>> {
  if (!tokenIds.length) return new Map();
  const { rows } = await db.query<{ token_id: string; price: number; price_source: string; updated_at: Date }>(
    'SELECT token_id, price, price_source, updated_at FROM token_prices WHERE token_id = ANY($1::text[])',
    [tokenIds],
  );
  return new Map(
    rows.map((r) => [
      r.token_id,
      {
        price: r.price,
        updatedAt: Math.floor(r.updated_at.getTime() / 1000),
        priceSource: r.price_source,
        stale: isStale({ updatedAt: r.updated_at, now, maxAgeSeconds }),
      },
    ]),
  );
}
