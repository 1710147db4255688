-- Up Migration
-- A candle's `open` is the price with the earliest own time of its day (hour), not the first one recorded:
-- sources report prices with their own times (an on-chain round, an API's timestamp), and a fallback source
-- may report an older price after a newer one was folded. `opened_at` is the own time of the price `open`
-- holds (indexer/store/prices.ts foldCandles: an earlier observation replaces both). Null for candles
-- folded before this column: their open counts as of the day's (hour's) start, so it stays as recorded.
ALTER TABLE token_price_history ADD COLUMN opened_at timestamptz;
ALTER TABLE token_price_hourly ADD COLUMN opened_at timestamptz;
