-- Up Migration
-- Overnight benchmark rate (SOFR) by publication day, fetched by the benchmark-rate job. Days
-- without a publication (weekends, holidays) have no row: readers carry the last rate forward.
CREATE TABLE benchmark_rates (
  day date PRIMARY KEY,
  rate double precision NOT NULL,
  source text NOT NULL,
  fetched_at timestamptz NOT NULL DEFAULT now()
);
