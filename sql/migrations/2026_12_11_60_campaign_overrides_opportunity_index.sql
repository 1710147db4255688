-- Up Migration
-- GET /v4/clamm/pools finds the campaigns an override moved onto a pool's opportunity (#46): by index, not by
-- reading every override.
CREATE INDEX campaign_overrides_opportunity_idx ON campaign_overrides (opportunity_id);
