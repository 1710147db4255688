import { fields, type InputOf } from '../../validate.js';

const symbol = { type: 'string', minLength: 1, maxLength: 100 } as const;

/** GET /v4/prices query: filters and paging as GET /v4/tokens. Test tokens only with `test=true`. */
export const listPricesQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    page: fields.page,
    items: fields.items,
    chainId: fields.chainId,
    symbol,
    address: fields.address,
    test: { ...fields.boolean, default: false },
  },
} as const;

export type ListPricesQuery = InputOf<typeof listPricesQuery>;

/** GET /v4/prices/symbol/{symbol}. */
export const priceSymbolParams = {
  type: 'object',
  additionalProperties: false,
  required: ['symbol'],
  properties: { symbol: { ...symbol, 'x-accepts': 'a token symbol (case-insensitive)' } },
} as const;

/** GET /v4/prices/symbol/{symbol} query: an optional chain. */
export const priceSymbolQuery = {
  type: 'object',
  additionalProperties: false,
  properties: { chainId: fields.chainId },
} as const;

/**
 * Unix days (days since 1970-01-01, UTC), the hosted service's unit for `from`/`to` of the price
 * history; bounded so a value in Unix seconds is a 400 naming the field rather than an empty answer.
 */
const unixDay = {
  type: 'integer',
  minimum: 0,
  maximum: 1_000_000,
  description: 'a Unix day (days since 1970-01-01 UTC), e.g. 20419 for 2025-11-27; not Unix seconds',
} as const;

/** Grains of the price history: hourly candles as stored (kept 90 days), the daily ones folded per day, week or month. */
export const PRICE_GRAINS = ['hour', 'day', 'week', 'month'] as const;

/**
 * GET /v4/prices/history and /v4/tokens/prices/history query: the token by `chainId` + `address`,
 * or by `symbol` (with `chainId` to pick one chain); a Unix-day window (default the last 365 days)
 * and the grain; `format` as the other histories (CSV or JSON, else by Accept).
 */
export const priceHistoryQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    chainId: fields.chainId,
    address: fields.address,
    symbol,
    from: unixDay,
    to: unixDay,
    grain: {
      type: 'string',
      enum: [...PRICE_GRAINS],
      default: 'day',
      description: 'hour (the last 90 days are kept), day, week (from Monday) or month',
    },
    format: {
      type: 'string',
      enum: ['csv', 'json'],
      description:
        'csv (a header row `day,timestamp,date,open,close,min,max,source`, then one row per bucket) or json; when absent, chosen by Accept (text/csv for CSV).',
    },
  },
} as const;

export type PriceHistoryQuery = InputOf<typeof priceHistoryQuery>;

/** Days a price-history answer spans at most: 10 years of daily candles, 92 days of hourly ones (2,208 rows). */
export const MAX_HISTORY_DAYS = { hour: 92, day: 3660, week: 3660, month: 3660 } as const;
