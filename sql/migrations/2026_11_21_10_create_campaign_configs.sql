-- Up Migration
-- Campaign configurations stored by POST /v4/config/store, keyed by the SHA-256 of their canonical
-- JSON form (keys sorted recursively, no whitespace), and the campaigns each one was associated with
-- by GET /v4/config/hash/{hash}?campaignId&distributionChainId. No foreign key to campaigns: a
-- configuration may be associated before its campaign is indexed.
CREATE TABLE campaign_configs (
  hash text PRIMARY KEY CHECK (hash ~ '^0x[0-9a-f]{64}$'),
  config jsonb NOT NULL,
  size_bytes integer NOT NULL CHECK (size_bytes BETWEEN 1 AND 16384),
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE campaign_config_associations (
  config_hash text NOT NULL REFERENCES campaign_configs (hash),
  distribution_chain_id integer NOT NULL,
  campaign_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (config_hash, distribution_chain_id, campaign_id)
);
CREATE INDEX campaign_config_associations_campaign_idx ON campaign_config_associations (distribution_chain_id, campaign_id);
