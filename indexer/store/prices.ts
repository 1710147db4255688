import type { PgClient, Queryable } from '../../internal/pg.js';
import type { PriceHistoryRow, TokenPriceRow } from '../transform/toPriceRows.js';
import type { PriceToken } from '../fetch/prices/types.js';

/** Every stored token, as the prices job asks for it (address lower-case), in id order. */
export async function listTokensToPrice(db: Queryable): Promise<PriceToken[]> {
  const { rows } = await db.query<{ id: string; chain_id: number; address: string }>(
    'SELECT id, chain_id, address FROM tokens ORDER BY id',
  );
  return rows.map((r) => ({ id: r.id, chainId: r.chain_id, address: r.address }));
}

/**
 * Batch upsert of current prices (one statement). The previous row is read in the same statement
 * snapshot, so the result says exactly which tokens got a new price or source.
 * @returns ids of tokens priced for the first time or whose price or price source changed.
 */
export async function upsertTokenPrices(client: PgClient, rows: readonly TokenPriceRow[]): Promise<string[]> {
  if (!rows.length) return [];
  const { rows: changed } = await client.query<{ token_id: string }>(
    `WITH input AS (
       SELECT * FROM unnest($1::text[], $2::float8[], $3::text[], $4::timestamptz[], $5::timestamptz[])
         AS t(token_id, price, price_source, updated_at, fetched_at)
     ), previous AS (
       SELECT p.token_id, p.price, p.price_source FROM token_prices p JOIN input USING (token_id)
     ), written AS (
       INSERT INTO token_prices (token_id, price, price_source, updated_at, fetched_at)
       SELECT token_id, price, price_source, updated_at, fetched_at FROM input
       ON CONFLICT (token_id) DO UPDATE SET price = EXCLUDED.price, price_source = EXCLUDED.price_source,
         updated_at = EXCLUDED.updated_at, fetched_at = EXCLUDED.fetched_at
       RETURNING token_id, price, price_source
     )
     SELECT w.token_id FROM written w LEFT JOIN previous p USING (token_id)
     WHERE p.token_id IS NULL OR p.price IS DISTINCT FROM w.price OR p.price_source IS DISTINCT FROM w.price_source
     ORDER BY w.token_id`,
    [
      rows.map((r) => r.tokenId),
      rows.map((r) => r.price),
      rows.map((r) => r.priceSource),
      rows.map((r) => r.updatedAt),
      rows.map((r) => r.fetchedAt),
    ],
  );
  return changed.map((r) => r.token_id);
}

/**
 * Folds price observations into daily candles (one statement): min and max widen, `close` and
 * `source` follow the observation with the latest own time, `open` the one with the earliest
 * (`opened_at`; a candle folded before that column opened at its day's start).
 * Replaying an observation changes nothing. At most one row per (token, day) per call.
 * @returns the number of history rows written.
 */
export async function upsertPriceHistory(client: PgClient, rows: readonly PriceHistoryRow[]): Promise<number> {
  return foldCandles(client, DAILY, rows, (r) => r.day);
}

/**
 * Folds the same observations into hourly candles (table token_price_hourly, #33), keyed by the
 * UTC hour of each price's own time, by the daily rule.
 * @returns the number of hourly rows written.
 */
export async function upsertHourlyPrices(client: PgClient, rows: readonly PriceHistoryRow[]): Promise<number> {
  return foldCandles(client, HOURLY, rows, (r) => `${r.updatedAt.toISOString().slice(0, 13)}:00:00Z`);
}

/** A candle table: its key column and type, and SQL of when a candle `h` starts (UTC). */
type CandleTable = { table: string; key: string; keyType: string; start: string };
const DAILY: CandleTable = {
  table: 'token_price_history',
  key: 'day',
  keyType: 'date',
  start: "(h.day::timestamp AT TIME ZONE 'UTC')",
};
const HOURLY: CandleTable = { table: 'token_price_hourly', key: 'hour', keyType: 'timestamptz', start: 'h.hour' };

/** One statement folding observations into the candles of `table` (its own constant names, never input). */
async function foldCandles(
  client: PgClient,
  { table, key, keyType, start }: CandleTable,
  rows: readonly PriceHistoryRow[],
  keyOf: (r: PriceHistoryRow) => string,
): Promise<number> {
  if (!rows.length) return 0;
  const earlier = `EXCLUDED.updated_at < coalesce(h.opened_at, ${start})`;
  const result = await client.query(
    `INSERT INTO ${table} AS h (token_id, ${key}, open, close, min, max, source, updated_at, opened_at)
     SELECT token_id, k, price, price, price, price, source, updated_at, updated_at
     FROM unnest($1::text[], $2::${keyType}[], $3::float8[], $4::text[], $5::timestamptz[]) AS t(token_id, k, price, source, updated_at)
     ON CONFLICT (token_id, ${key}) DO UPDATE SET
       open = CASE WHEN ${earlier} THEN EXCLUDED.open ELSE h.open END,
       opened_at = CASE WHEN ${earlier} THEN EXCLUDED.updated_at ELSE h.opened_at END,
       min = LEAST(h.min, EXCLUDED.min),
       max = GREATEST(h.max, EXCLUDED.max),
       close = CASE WHEN EXCLUDED.updated_at >= h.updated_at THEN EXCLUDED.close ELSE h.close END,
       source = CASE WHEN EXCLUDED.updated_at >= h.updated_at THEN EXCLUDED.source ELSE h.source END,
       updated_at = GREATEST(h.updated_at, EXCLUDED.updated_at)`,
    [
      rows.map((r) => r.tokenId),
      rows.map(keyOf),
      rows.map((r) => r.price),
      rows.map((r) => r.source),
      rows.map((r) => r.updatedAt),
    ],
  );
  return result.rowCount ?? 0;
}

/** Ids of campaigns whose reward token (distribution chain + address) is one of `tokenIds`. */
export async function campaignsUsingTokens(db: Queryable, tokenIds: readonly string[]): Promise<string[]> {
  if (!tokenIds.length) return [];
  const { rows } = await db.query<{ id: string }>(
    `SELECT c.id FROM campaigns c JOIN tokens t ON t.chain_id = c.distribution_chain_id AND t.address = c.reward_token
     WHERE t.id = ANY($1::text[]) ORDER BY c.id`,
    [tokenIds],
  );
  return rows.map((r) => r.id);
}
