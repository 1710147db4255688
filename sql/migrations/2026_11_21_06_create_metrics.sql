-- Up Migration
-- Computed figures with the inputs they came from (so an independent script can recompute them),
-- and their history snapshots, read by the API at hour, day, week and month grains.

CREATE TABLE campaign_metrics (
  campaign_db_id text PRIMARY KEY,
  computed_at timestamptz NOT NULL,
  status text NOT NULL CHECK (status IN ('LIVE', 'PAST', 'SOON')),
  daily_rewards_usd double precision,
  daily_amount numeric(78, 0) NOT NULL,
  apr double precision,
  tvl_usd double precision,
  campaign_status jsonb NOT NULL,
  inputs jsonb NOT NULL
);

CREATE TABLE opportunity_metrics (
  opportunity_id text PRIMARY KEY,
  computed_at timestamptz NOT NULL,
  tvl double precision NOT NULL,
  apr double precision NOT NULL,
  daily_rewards double precision NOT NULL,
  native_apr double precision NOT NULL DEFAULT 0,
  max_daily_rewards double precision,
  live_campaigns integer NOT NULL DEFAULT 0,
  records jsonb NOT NULL,
  inputs jsonb NOT NULL
);

CREATE TABLE opportunity_snapshots (
  opportunity_id text NOT NULL,
  ts timestamptz NOT NULL,
  apr double precision NOT NULL,
  tvl double precision NOT NULL,
  native_apr double precision NOT NULL,
  daily_rewards double precision NOT NULL,
  PRIMARY KEY (opportunity_id, ts)
);

CREATE TABLE campaign_snapshots (
  campaign_db_id text NOT NULL,
  ts timestamptz NOT NULL,
  apr double precision,
  tvl double precision,
  daily_rewards double precision,
  PRIMARY KEY (campaign_db_id, ts)
);
