-- Up Migration
-- A new campaign (or a campaign's first override or privacy row) changes the distributed figures only when
-- a root already distributed for it: every rollup row comes from reward_campaign_deltas joined to its campaign
-- (domain/tables/distributed.ts). Until now any such insert marked the rollups dirty
-- (2026_12_03_08_distributed_facet_rollup.sql), so on a chain where campaigns are created all day every
-- distributed read took the exact path (seconds at a million campaigns) while the `distributed` job rebuilt
-- the rollups (26.6 s at that size, docs/benchmarks/report.md) again and again. Now those inserts mark only
-- when one of the inserted rows names a campaign some delta of its chain names; deletes, truncates and
-- updates mark as before.
--
-- Why a lock (write skew otherwise, found by the killIndexer chaos case): a campaign insert that checks
-- before a tree's deltas commit sees none and marks nothing; a rebuild whose snapshot falls between the
-- deltas' commit and the campaign's sees the deltas without their campaign, counts nothing for them and
-- clears the deltas' own marker: the figures stay short until some other write. So the check and the
-- deltas' insert take one lock per chain (distributed_rollup_lock), each held to its commit: either the
-- campaign committed before the deltas' insert began (every snapshot that sees the deltas sees the
-- campaign), or the check runs after the deltas committed and sees them. The check runs on a snapshot
-- taken after the lock only under READ COMMITTED; a transaction of another isolation level always marks.

-- Held until the caller's transaction ends: the tree store takes it just before it inserts the deltas
-- (indexer/store/rewardTotals.ts storeTreeDeltas), the checks below before they look.
CREATE FUNCTION distributed_rollup_lock(chain integer) RETURNS void LANGUAGE sql AS $$
  SELECT pg_advisory_xact_lock(6582892, chain) -- 0x64726c, "drl"
$$;

-- The deltas of a campaign, as the figures join them (lower(campaign_id)).
CREATE INDEX reward_campaign_deltas_lower_id_idx ON reward_campaign_deltas (chain_id, lower(campaign_id));

-- `changed` holds (chain_id, campaign_id) of the inserted rows; marks when a delta names one of them.
CREATE FUNCTION distributed_rollup_mark_if_distributed(chains integer[], ids text[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('transaction_isolation') = 'read committed' THEN
    PERFORM distributed_rollup_lock(c) FROM (SELECT DISTINCT c FROM unnest(chains) c ORDER BY 1) l;
    -- A new statement: a new snapshot, taken after the lock.
    IF NOT EXISTS (SELECT 1 FROM unnest(chains, ids) n(chain_id, campaign_id) JOIN reward_campaign_deltas d
        ON d.chain_id = n.chain_id AND lower(d.campaign_id) = lower(n.campaign_id)) THEN
      RETURN;
    END IF;
  END IF;
  INSERT INTO distributed_rollup_dirty (xid) VALUES (txid_current()) ON CONFLICT DO NOTHING;
END $$;

CREATE FUNCTION distributed_rollup_mark_campaigns_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM distributed_rollup_mark_if_distributed(array_agg(distribution_chain_id), array_agg(campaign_id))
  FROM changed HAVING count(*) > 0;
  RETURN NULL;
END $$;

-- campaign_overrides and campaign_privacy name the campaign by campaign_db_id.
CREATE FUNCTION distributed_rollup_mark_campaign_rows_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM distributed_rollup_mark_if_distributed(array_agg(c.distribution_chain_id), array_agg(c.campaign_id))
  FROM changed n JOIN campaigns c ON c.id = n.campaign_db_id HAVING count(*) > 0;
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
