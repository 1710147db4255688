import { isStale, toServedPrice } from '../../../domain/prices.js';
import type { CandleRow, PriceDbRow } from './repo.js';

/** A current price (GET /v4/prices): `price` is null when stale, as on Token records (toServedPrice). */
export type PriceResponse = {
  tokenId: string;
  chainId: number;
  address: string;
  symbol: string;
  price: number | null;
  /** Unix seconds of the price's own time (the source's, never our fetch time). */
  updatedAt: number;
  source: string;
  stale: boolean;
};

/** Pure: a priced token → PriceResponse, stale when older than `maxAgeSeconds` at `now` (isStale). */
export function serializePrice(row: PriceDbRow, now: Date, maxAgeSeconds: number): PriceResponse {
  const stale = isStale({ updatedAt: row.updated_at, now, maxAgeSeconds });
  const updatedAt = Math.floor(row.updated_at.getTime() / 1000);
  return {
    tokenId: row.token_id,
    chainId: row.chain_id,
    address: row.address,
    symbol: row.symbol,
    price: toServedPrice({ price: row.price, updatedAt, priceSource: row.price_source, stale }).price,
    updatedAt,
    source: row.price_source,
    stale,
  };
}

/**
 * A price-history bucket: the hosted `{ day, open, close, min, max, source }` (`day` the Unix day
 * the bucket starts in) plus `timestamp` (Unix seconds, a string) and `date` (ISO 8601) of its start,
 * as the other histories.
 */
export type CandleResponse = Omit<CandleRow, 'start'> & { day: number; timestamp: string; date: string };

const DAY_SECONDS = 86_400;

/** Pure: a candle row → CandleResponse. */
export function serializeCandle({ start, ...candle }: CandleRow): CandleResponse {
  return {
    day: Math.floor(start / DAY_SECONDS),
    timestamp: String(start),
    date: new Date(start * 1000).toISOString(),
    ...candle,
  };
}

/** CSV columns of the price history, in order. */
const CSV_COLUMNS = ['day', 'timestamp', 'date', 'open', 'close', 'min', 'max', 'source'] as const;

/** Pure: candles → CSV text (header row, one row per bucket; a source with a comma or quote is quoted). */
export function candlesToCsv(candles: readonly CandleResponse[]): string {
  const cell = (v: unknown) => {
    const s = v === null || v === undefined ? '' : String(v);
    return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return `${[CSV_COLUMNS.join(','), ...candles.map((c) => CSV_COLUMNS.map((k) => cell(c[k])).join(','))].join('\n')}\n`;
}
