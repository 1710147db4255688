-- The private campaigns alone: every read route's chain context subtracts the live private campaigns
-- per request (api/chainRecords.ts, countLivePrivateCampaigns), and searches re-check their hits
-- against them (hiddenCampaignIds). Private campaigns are few among the rows of this table (a
-- campaign made public again keeps its row), so these reads stay index-only whatever its size.
CREATE INDEX campaign_privacy_private_idx ON campaign_privacy (campaign_db_id) WHERE is_private;
