import { nowSeconds, type ApiDeps } from '../../deps.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import { findHistoryTokenIds, listPriceRows, loadCandles } from './repo.js';
import { MAX_HISTORY_DAYS, type ListPricesQuery, type PriceHistoryQuery } from './schema.js';
import { serializeCandle, serializePrice, type CandleResponse, type PriceResponse } from './serialize.js';

export const DAY_SECONDS = 86_400;

/**
 * Current USD prices of the priced tokens `q` keeps, paged. Tables tokens, token_prices. Shared
 * with GraphQL `prices`.
 */
export async function listPrices(deps: ApiDeps, q: ListPricesQuery): Promise<PriceResponse[]> {
  const now = new Date(nowSeconds(deps) * 1000);
  const rows = await listPriceRows(deps.pg, q);
  return rows.map((r) => serializePrice(r, now, deps.config.prices.maxAgeSeconds));
}

/** The one stored token a history request names; 400 naming the field when it names none or several. */
export async function historyTokenId(deps: ApiDeps, q: PriceHistoryQuery): Promise<string> {
  if (q.address && q.chainId === undefined)
    throw new ValidationError([{ field: 'chainId', message: 'is required with address' }]);
  if (!q.address && !q.symbol)
    throw new ValidationError([{ field: 'address', message: 'is required (with chainId), unless symbol is given' }]);
  const ids = await findHistoryTokenIds(deps.pg, q);
  if (!ids.length) throw new NotFoundError('No such token');
  if (ids.length > 1)
    throw new ValidationError([
      { field: 'symbol', message: 'names several tokens; give chainId and address to pick one' },
    ]);
  return ids[0]!;
}

/**
 * A token's candles over a Unix-day window (default the last 365 days up to today, 90 for hours;
 * at most MAX_HISTORY_DAYS) per `grain`, oldest first; 400 naming the field for a bad window, 404
 * for an unknown token. Tables tokens, token_price_history, token_price_hourly. Shared with GraphQL
 * `priceHistory`.
 */
export async function loadPriceHistory(deps: ApiDeps, q: PriceHistoryQuery): Promise<CandleResponse[]> {
  const toDay = q.to ?? Math.floor(nowSeconds(deps) / DAY_SECONDS);
  // The hosted default is the last 365 days; hourly candles are kept 90 days, so a default hour window is that.
  const fromDay = q.from ?? Math.max(0, toDay - (q.grain === 'hour' ? 90 : 365));
  if (fromDay > toDay) throw new ValidationError([{ field: 'to', message: 'must be greater than or equal to from' }]);
  const maxDays = MAX_HISTORY_DAYS[q.grain];
  if (toDay - fromDay > maxDays)
    throw new ValidationError([
      { field: 'from', message: `must be at most ${maxDays} days before to with grain ${q.grain}` },
    ]);
  const tokenId = await historyTokenId(deps, q);
  return (await loadCandles(deps.pg, { tokenId, fromDay, toDay, grain: q.grain })).map(serializeCandle);
}
