import type { Queryable } from '../../../internal/pg.js';
import type { ListPricesQuery } from './schema.js';

/** A priced token as the prices routes read it (tokens joined to token_prices). */
export type PriceDbRow = {
  token_id: string;
  chain_id: number;
  address: string;
  symbol: string;
  price: number;
  price_source: string;
  updated_at: Date;
};

const SELECT_PRICES = `SELECT t.id AS token_id, t.chain_id, t.address, t.symbol, p.price, p.price_source, p.updated_at
  FROM token_prices p JOIN tokens t ON t.id = p.token_id`;

/**
 * Priced tokens matching the filters, ordered by chain, symbol and token id; one page. Tables
 * tokens, token_prices.
 */
export async function listPriceRows(db: Queryable, q: ListPricesQuery): Promise<PriceDbRow[]> {
  const values: unknown[] = [];
  const arg = (v: unknown) => `$${values.push(v)}`;
  const where: string[] = [];
  if (q.chainId !== undefined) where.push(`t.chain_id = ${arg(q.chainId)}`);
  if (q.symbol) where.push(`lower(t.symbol) = ${arg(q.symbol.toLowerCase())}`);
  if (q.address) where.push(`t.address = ${arg(q.address.toLowerCase())}`);
  if (!q.test) where.push('NOT t.is_test');
  const { rows } = await db.query<PriceDbRow>(
    `${SELECT_PRICES} ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
     ORDER BY t.chain_id, lower(t.symbol), t.id LIMIT ${arg(q.items)} OFFSET ${arg(q.page * q.items)}`,
    values,
  );
  return rows;
}

/** Priced tokens of a symbol (case-insensitive), on one chain when given, test tokens included. */
export async function listPricesOfSymbol(db: Queryable, symbol: string, chainId?: number): Promise<PriceDbRow[]> {
  const { rows } = await db.query<PriceDbRow>(
    `${SELECT_PRICES} WHERE lower(t.symbol) = $1 AND ($2::int IS NULL OR t.chain_id = $2)
     ORDER BY t.is_test, t.verified DESC, t.chain_id, t.id LIMIT 100`,
    [symbol.toLowerCase(), chainId ?? null],
  );
  return rows;
}

/** Ids of the stored tokens a history request names: by chain and address, or by symbol (and chain). */
export async function findHistoryTokenIds(
  db: Queryable,
  by: { chainId?: number; address?: string; symbol?: string },
): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM tokens WHERE ($1::int IS NULL OR chain_id = $1) AND ($2::text IS NULL OR address = $2)
       AND ($3::text IS NULL OR lower(symbol) = $3) ORDER BY id LIMIT 2`,
    [by.chainId ?? null, by.address?.toLowerCase() ?? null, by.symbol?.toLowerCase() ?? null],
  );
  return rows.map((r) => r.id);
}

/** One candle of the price history, `start` the Unix seconds its bucket starts at. */
export type CandleRow = { start: number; open: number; close: number; min: number; max: number; source: string | null };

export type LoadCandlesArgs = {
  tokenId: string;
  /** Unix days, both included. */
  fromDay: number;
  toDay: number;
  grain: 'hour' | 'day' | 'week' | 'month';
};

/**
 * The token's candles in [fromDay, toDay] (Unix days, UTC), oldest first: hourly ones as stored
 * (table token_price_hourly), else the daily ones folded per `grain` (PostgreSQL's date_trunc: weeks
 * start on Monday): open of the first day, close and source of the last, min and max over the
 * bucket (table token_price_history).
 */
export async function loadCandles(db: Queryable, args: LoadCandlesArgs): Promise<CandleRow[]> {
  if (args.grain === 'hour') {
    const { rows } = await db.query<CandleRow>(
      `SELECT extract(epoch FROM hour)::int AS start, open, close, min, max, source FROM token_price_hourly
       WHERE token_id = $1 AND hour >= to_timestamp($2::int * 86400) AND hour < to_timestamp(($3::int + 1) * 86400)
       ORDER BY hour`,
      [args.tokenId, args.fromDay, args.toDay],
    );
    return rows;
  }
  const { rows } = await db.query<CandleRow>(
    `SELECT (date_trunc($4, h.day::timestamp)::date - date '1970-01-01') * 86400 AS start,
       (array_agg(h.open ORDER BY h.day))[1] AS open,
       (array_agg(h.close ORDER BY h.day DESC))[1] AS close,
       min(h.min) AS min, max(h.max) AS max,
       (array_agg(h.source ORDER BY h.day DESC))[1] AS source
     FROM token_price_history h
     WHERE h.token_id = $1 AND h.day BETWEEN date '1970-01-01' + $2::int AND date '1970-01-01' + $3::int
     GROUP BY 1 ORDER BY 1`,
    [args.tokenId, args.fromDay, args.toDay, args.grain],
  );
  return rows;
}
