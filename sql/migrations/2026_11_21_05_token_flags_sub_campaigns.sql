-- Up Migration
-- Token fields of the Token record maintained by the tokens job, and sub-campaign links.

ALTER TABLE tokens
  ADD COLUMN display_symbol text,
  ADD COLUMN underlying_token_id text,
  ADD COLUMN is_stablecoin boolean NOT NULL DEFAULT false;

-- A sub-campaign names its parent in its creation configuration (see
-- indexer/campaignData/decodeCampaignData.ts); the link is fixed at creation (overrides keep it).
ALTER TABLE campaigns ADD COLUMN parent_campaign_id text;
CREATE INDEX campaigns_parent_idx ON campaigns (parent_campaign_id) WHERE parent_campaign_id IS NOT NULL;

CREATE OR REPLACE VIEW campaigns_current AS
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
  c.block_number, c.block_hash, c.tx_hash, c.log_index, c.created_at, c.indexed_at,
  c.parent_campaign_id
FROM campaigns c
LEFT JOIN LATERAL (
  SELECT * FROM campaign_overrides x WHERE x.campaign_db_id = c.id ORDER BY x.block_number DESC, x.log_index DESC LIMIT 1
) o ON true;
