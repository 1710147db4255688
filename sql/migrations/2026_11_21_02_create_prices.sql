-- Up Migration
-- Token prices (indexer issue, "prices"): the current USD price of each token with the source it
-- came from, and one row per token and UTC day of price history. Prices are double precision
-- (USD figures, not token amounts). Forward-only: fix with a new file, never edit this one.

-- Current price per token, replaced by every run of the prices job (the first source in priority
-- order that priced the token). `updated_at` is the source's own time of the price (feed round,
-- API timestamp), never our fetch time: staleness is judged on it, so an old price is never served
-- as fresh. `fetched_at` is when we last read it.
CREATE TABLE token_prices (
  token_id text PRIMARY KEY REFERENCES tokens (id) ON DELETE CASCADE,
  price double precision NOT NULL CHECK (price > 0),
  price_source text NOT NULL,
  updated_at timestamptz NOT NULL,
  fetched_at timestamptz NOT NULL
);

-- Daily candles, shaped like GET /v4/tokens/prices/history ({ day, open, close, min, max, source }),
-- keyed by the UTC day of the price's own time. `open` is the first price recorded for the day;
-- `close` and `source` follow the price with the latest `updated_at` (the source time of `close`,
-- the one column beyond the API shape: without it an older price read late would overwrite close).
CREATE TABLE token_price_history (
  token_id text NOT NULL REFERENCES tokens (id) ON DELETE CASCADE,
  day date NOT NULL,
  open double precision NOT NULL,
  close double precision NOT NULL,
  min double precision NOT NULL,
  max double precision NOT NULL,
  source text,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (token_id, day)
);
