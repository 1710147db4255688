-- Up Migration
-- Foundation schema (issue 2): chains, block headers, per-job cursors, campaigns, tokens,
-- the search outbox and the job run ledger. uint256 values are numeric(78,0), never floats.

CREATE TABLE chains (
  id integer PRIMARY KEY,
  name text NOT NULL,
  icon text NOT NULL DEFAULT '',
  explorers jsonb NOT NULL DEFAULT '[]',
  is_test boolean NOT NULL DEFAULT false,
  end_of_dispute_period bigint NOT NULL DEFAULT 0,
  last_claims_onchain_fetch_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Block headers past the confirmation depth; contiguous from each chain's start block.
CREATE TABLE blocks (
  chain_id integer NOT NULL,
  number bigint NOT NULL,
  hash text NOT NULL,
  parent_hash text NOT NULL,
  timestamp bigint NOT NULL,
  PRIMARY KEY (chain_id, number)
);
CREATE INDEX blocks_chain_timestamp_idx ON blocks (chain_id, timestamp);

-- Last block fully processed by a job on a chain; advanced in the same transaction as its rows.
CREATE TABLE cursors (
  job text NOT NULL,
  chain_id integer NOT NULL,
  block_number bigint NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (job, chain_id)
);

CREATE TABLE tokens (
  id text PRIMARY KEY,
  chain_id integer NOT NULL,
  address text NOT NULL,
  name text,
  symbol text NOT NULL,
  decimals integer NOT NULL,
  icon text NOT NULL DEFAULT '',
  verified boolean NOT NULL DEFAULT false,
  is_native boolean NOT NULL DEFAULT false,
  is_test boolean NOT NULL DEFAULT false,
  type text NOT NULL DEFAULT 'TOKEN' CHECK (type IN ('TOKEN', 'PRETGE', 'POINT')),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (chain_id, address)
);

CREATE TABLE campaigns (
  id text PRIMARY KEY,
  distribution_chain_id integer NOT NULL,
  compute_chain_id integer NOT NULL,
  campaign_id text NOT NULL,
  creator text NOT NULL,
  reward_token text NOT NULL,
  amount numeric(78, 0) NOT NULL,
  campaign_type integer NOT NULL,
  start_timestamp bigint NOT NULL,
  end_timestamp bigint NOT NULL,
  campaign_data text NOT NULL,
  block_number bigint NOT NULL,
  block_hash text NOT NULL,
  tx_hash text NOT NULL,
  log_index integer NOT NULL,
  created_at timestamptz NOT NULL,
  indexed_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (distribution_chain_id, campaign_id)
);
CREATE INDEX campaigns_chain_block_idx ON campaigns (distribution_chain_id, block_number);
CREATE INDEX campaigns_compute_chain_time_idx ON campaigns (compute_chain_id, start_timestamp, end_timestamp);

-- Transactional outbox: every change to a searchable entity enqueues its id in the same
-- transaction; the publish job turns entries into Elasticsearch documents and deletes them.
CREATE TABLE search_outbox (
  id bigserial PRIMARY KEY,
  entity text NOT NULL CHECK (entity IN ('campaign', 'opportunity')),
  entity_id text NOT NULL,
  enqueued_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE job_runs (
  id bigserial PRIMARY KEY,
  job text NOT NULL,
  status text NOT NULL CHECK (status IN ('running', 'success', 'failed')),
  started_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  ranges jsonb NOT NULL DEFAULT '[]',
  counts jsonb NOT NULL DEFAULT '{}',
  error text
);
CREATE INDEX job_runs_job_started_idx ON job_runs (job, started_at DESC);
