-- Up Migration
-- Campaign overrides and reallocations (kept whole, so every previous configuration can be served),
-- the decoded configuration of each campaign, its opportunity, and the current-state view.

ALTER TABLE campaigns
  ADD COLUMN main_parameter text,
  ADD COLUMN opportunity_id text,
  ADD COLUMN params jsonb NOT NULL DEFAULT '{}';
CREATE INDEX campaigns_opportunity_idx ON campaigns (opportunity_id);

-- One row per CampaignOverride log: the campaign's full configuration from that override on.
CREATE TABLE campaign_overrides (
  chain_id integer NOT NULL,
  campaign_db_id text NOT NULL,
  campaign_id text NOT NULL,
  campaign_type integer NOT NULL,
  compute_chain_id integer NOT NULL,
  start_timestamp bigint NOT NULL,
  end_timestamp bigint NOT NULL,
  campaign_data text NOT NULL,
  main_parameter text,
  opportunity_id text NOT NULL,
  params jsonb NOT NULL DEFAULT '{}',
  block_number bigint NOT NULL,
  block_hash text NOT NULL,
  tx_hash text NOT NULL,
  log_index integer NOT NULL,
  timestamp bigint NOT NULL,
  PRIMARY KEY (chain_id, tx_hash, log_index)
);
CREATE INDEX campaign_overrides_campaign_idx ON campaign_overrides (campaign_db_id, block_number, log_index);

-- One row per CampaignReallocation log.
CREATE TABLE campaign_reallocations (
  chain_id integer NOT NULL,
  campaign_db_id text NOT NULL,
  campaign_id text NOT NULL,
  from_addresses text[] NOT NULL,
  to_address text NOT NULL,
  block_number bigint NOT NULL,
  block_hash text NOT NULL,
  tx_hash text NOT NULL,
  log_index integer NOT NULL,
  timestamp bigint NOT NULL,
  PRIMARY KEY (chain_id, tx_hash, log_index)
);
CREATE INDEX campaign_reallocations_campaign_idx ON campaign_reallocations (campaign_db_id);

-- Opportunities: one per grouping key (compute chain, campaign type, identifier). Derived from
-- campaigns; a row whose campaigns were all rolled back by a reorg is simply not published.
CREATE TABLE opportunities (
  id text PRIMARY KEY,
  chain_id integer NOT NULL,
  type text NOT NULL,
  identifier text NOT NULL,
  action text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (chain_id, type, identifier)
);

-- A campaign as it stands now: its creation, overlaid by its latest override (if any).
CREATE VIEW campaigns_current AS
SELECT c.id, c.distribution_chain_id, c.campaign_id, c.creator, c.reward_token, c.amount,
  COALESCE(o.compute_chain_id, c.compute_chain_id) AS compute_chain_id,
  COALESCE(o.campaign_type, c.campaign_type) AS campaign_type,
  COALESCE(o.start_timestamp, c.start_timestamp) AS start_timestamp,
  COALESCE(o.end_timestamp, c.end_timestamp) AS end_timestamp,
  COALESCE(o.campaign_data, c.campaign_data) AS campaign_data,
  COALESCE(o.main_parameter, c.main_parameter) AS main_parameter,
  COALESCE(o.opportunity_id, c.opportunity_id) AS opportunity_id,
  COALESCE(o.params, c.params) AS params,
  (o.campaign_db_id IS NOT NULL) AS has_overrides,
  c.block_number, c.block_hash, c.tx_hash, c.log_index, c.created_at, c.indexed_at
FROM campaigns c
LEFT JOIN LATERAL (
  SELECT * FROM campaign_overrides x WHERE x.campaign_db_id = c.id ORDER BY x.block_number DESC, x.log_index DESC LIMIT 1
) o ON true;
