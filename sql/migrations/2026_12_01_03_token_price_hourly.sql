-- Up Migration
-- Hourly candles beside the daily ones (#33, GET /v4/prices/history?grain=hour), keyed by the UTC
-- hour of the price's own time and folded like token_price_history: `open` the first price recorded
-- for the hour, `close` and `source` those with the latest `updated_at`. Written by the prices job
-- in the same transaction as the daily candles; the retention job keeps 90 days of them (the daily
-- candles are kept for good).
CREATE TABLE token_price_hourly (
  token_id text NOT NULL REFERENCES tokens (id) ON DELETE CASCADE,
  hour timestamptz NOT NULL,
  open double precision NOT NULL,
  close double precision NOT NULL,
  min double precision NOT NULL,
  max double precision NOT NULL,
  source text,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (token_id, hour)
);

-- The retention job's predicate (hour older than the retention window).
CREATE INDEX token_price_hourly_hour_idx ON token_price_hourly (hour);
