-- Up Migration
-- Stored configurations are written by anyone (POST /v4/config/store), so the ones no campaign uses
-- are bounded (issue #29 L2): each caller may hold CONFIG_STORE_MAX_PENDING of them and the
-- retention job deletes them CONFIG_STORE_UNASSOCIATED_TTL_DAYS after they were last stored.
-- "Used" = an association row, or a campaign whose on-chain campaignData (as created or as any
-- override set it) is exactly the configuration's hash (domain/tables/campaignConfigs.ts).
--   stored_at: when the configuration was last stored (storing it again renews it);
--   stored_by: the caller of its first store (`key:<id>`, `user:<address>` or `ip:<address or /64>`),
--              NULL for rows stored before this migration and for the back office.
ALTER TABLE campaign_configs ADD COLUMN stored_at timestamptz, ADD COLUMN stored_by text;
UPDATE campaign_configs SET stored_at = created_at;
ALTER TABLE campaign_configs ALTER COLUMN stored_at SET DEFAULT now(), ALTER COLUMN stored_at SET NOT NULL;
-- The sweep walks old rows in key order, a batch at a time.
CREATE INDEX campaign_configs_stored_idx ON campaign_configs (stored_at, hash);
-- A caller's recent stores, counted against its quota.
CREATE INDEX campaign_configs_stored_by_idx ON campaign_configs (stored_by, stored_at) WHERE stored_by IS NOT NULL;
-- Campaigns whose campaignData is a 32-byte hash (the config-hash form: '0x' + 64 hex digits), by
-- that hash; other campaignData (any length) is not indexed, so no long value can break an insert.
CREATE INDEX campaigns_config_hash_idx ON campaigns (lower(campaign_data)) WHERE length(campaign_data) = 66;
CREATE INDEX campaign_overrides_config_hash_idx ON campaign_overrides (lower(campaign_data)) WHERE length(campaign_data) = 66;
