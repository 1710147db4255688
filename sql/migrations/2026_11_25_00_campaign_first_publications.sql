-- When each campaign's document was first written to Elasticsearch (freshness: this − the block
-- time of NewCampaign), in a narrow table of its own. Stamping a column of campaigns rewrote the
-- whole wide row and every one of its indexes once per campaign (a non-HOT update: ~4.5 MB of WAL
-- per 2,000 campaigns against ~0.6 MB for these inserts). A campaign deleted by a reorg takes its
-- stamp with it; re-indexed, it is stamped again when published again.
CREATE TABLE campaign_first_publications (
  campaign_db_id text PRIMARY KEY REFERENCES campaigns (id) ON DELETE CASCADE,
  published_at timestamptz NOT NULL
);
INSERT INTO campaign_first_publications (campaign_db_id, published_at)
  SELECT id, first_published_at FROM campaigns WHERE first_published_at IS NOT NULL;
CREATE INDEX campaign_first_publications_at_idx ON campaign_first_publications (published_at);
ALTER TABLE campaigns DROP COLUMN first_published_at;
