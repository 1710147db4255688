-- Up Migration
-- A new campaign (or a campaign's first override or privacy row) changes the distributed figures only when
-- a root already distributed for it: every rollup row comes from reward_campaign_deltas joined to its campaign
-- (domain/tables/distributed.ts). Until now any such insert marked the rollups dirty
-- (2026_12_03_08_distributed_facet_rollup.sql), so on a chain where campaigns are created all day every
-- distributed read took the exact path (seconds at a million campaigns) while the `distributed` job rebuilt the
-- rollups (26.6 s at that size, docs/benchmarks/report.md) again and again. Now those inserts mark only when
-- one of the inserted rows names a campaign some delta names; deletes, truncates and updates mark as before.

-- The deltas of a campaign, as the figures join them (lower(campaign_id)).
CREATE INDEX reward_campaign_deltas_lower_id_idx ON reward_campaign_deltas (chain_id, lower(campaign_id));

CREATE FUNCTION distributed_rollup_mark_campaigns_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM changed n JOIN reward_campaign_deltas d
      ON d.chain_id = n.distribution_chain_id AND lower(d.campaign_id) = lower(n.campaign_id)) THEN
    INSERT INTO distributed_rollup_dirty (xid) VALUES (txid_current()) ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END $$;

-- campaign_overrides and campaign_privacy name the campaign by campaign_db_id.
CREATE FUNCTION distributed_rollup_mark_campaign_rows_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM changed n JOIN campaigns c ON c.id = n.campaign_db_id JOIN reward_campaign_deltas d
      ON d.chain_id = c.distribution_chain_id AND lower(d.campaign_id) = lower(c.campaign_id)) THEN
    INSERT INTO distributed_rollup_dirty (xid) VALUES (txid_current()) ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END $$;

DROP TRIGGER campaigns_rollup_insert ON campaigns;
CREATE TRIGGER campaigns_rollup_insert AFTER INSERT ON campaigns REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION distributed_rollup_mark_campaigns_inserted();
DROP TRIGGER campaign_overrides_rollup_insert ON campaign_overrides;
CREATE TRIGGER campaign_overrides_rollup_insert AFTER INSERT ON campaign_overrides REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION distributed_rollup_mark_campaign_rows_inserted();
DROP TRIGGER campaign_privacy_rollup_insert ON campaign_privacy;
CREATE TRIGGER campaign_privacy_rollup_insert AFTER INSERT ON campaign_privacy REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION distributed_rollup_mark_campaign_rows_inserted();
