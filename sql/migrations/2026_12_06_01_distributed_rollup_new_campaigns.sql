-- Up Migration
-- A new campaign (or a campaign's first override or privacy row) changes the distributed figures only when
-- a root already distributed for it: every rollup row comes from reward_campaign_deltas joined to its campaign
-- (domain/tables/distributed.ts CAMPAIGN_JOIN). Until now any such insert marked the rollups dirty
-- (2026_12_03_08_distributed_facet_rollup.sql), so on a chain where campaigns are created all day every
-- distributed read took the exact path (seconds at a million campaigns) while the `distributed` job rebuilt
-- the rollups (26.6 s at that size) again and again.
--
-- Now such an insert only notes the campaign here, in its own transaction, and the question "does a delta
-- name it?" is asked by each read, in the read's own snapshot (rollupFreshSql): the rollups answer unless a
-- noted campaign has deltas. Why that is exact: the rollups were built from one snapshot S, and a read's
-- snapshot R sees every row S saw. A delta R sees and S did not came with a dirty marker (always written) that
-- S did not see, so did not clear: the read answers exactly. A campaign row R sees and S did not came with a
-- note S did not see, so did not clear (the rebuild deletes the notes its snapshot sees); if R sees a delta
-- naming the campaign, the read answers exactly, and if not, the campaign adds nothing to R's figures either.
-- No decision is taken by a writer on what another uncommitted writer may do, so there is no write skew (two
-- earlier versions that decided at insert time served short figures in the killIndexer chaos case).
--
-- Notes of campaigns no delta names are dropped by the `distributed` job (dropDistributedRollupNotes): safe in
-- any snapshot P that sees the note and no delta: a delta committed later than P is later than the campaign,
-- so a rollup whose snapshot sees the delta sees the campaign, and one that does not see it left its marker.
CREATE TABLE distributed_rollup_new_campaigns (
  campaign_db_id text NOT NULL,
  xid bigint NOT NULL DEFAULT txid_current(),
  PRIMARY KEY (campaign_db_id, xid)
);

-- The deltas of a campaign, as the figures join them (lower(campaign_id)): the read's probe per note.
CREATE INDEX reward_campaign_deltas_lower_id_idx ON reward_campaign_deltas (chain_id, lower(campaign_id));

-- TG_ARGV[0]: the column naming the campaign (campaigns.id; campaign_db_id in campaign_overrides and
-- campaign_privacy).
CREATE FUNCTION distributed_rollup_note_campaigns() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('INSERT INTO distributed_rollup_new_campaigns (campaign_db_id)
    SELECT DISTINCT %I FROM changed ON CONFLICT DO NOTHING', TG_ARGV[0]);
  RETURN NULL;
END $$;

DROP TRIGGER campaigns_rollup_insert ON campaigns;
CREATE TRIGGER campaigns_rollup_insert AFTER INSERT ON campaigns REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION distributed_rollup_note_campaigns('id');
DROP TRIGGER campaign_overrides_rollup_insert ON campaign_overrides;
CREATE TRIGGER campaign_overrides_rollup_insert AFTER INSERT ON campaign_overrides REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION distributed_rollup_note_campaigns('campaign_db_id');
DROP TRIGGER campaign_privacy_rollup_insert ON campaign_privacy;
CREATE TRIGGER campaign_privacy_rollup_insert AFTER INSERT ON campaign_privacy REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION distributed_rollup_note_campaigns('campaign_db_id');
