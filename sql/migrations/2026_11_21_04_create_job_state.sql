-- Up Migration
-- Operators (indexer issue, "Operators" and "search projection"): per-job pause and schedule
-- overrides, the first publication time of each campaign (freshness), and the reindex windows
-- that keep consumed outbox entries for replay after an alias swap. Forward-only.

-- Operator state of a job, changed by `jobs/cli.ts pause|resume|schedule`. A job without a row is
-- active on its configured schedule. `cron` wins over JOB_<NAME>_CRON and the job's default; the
-- scheduler re-reads this table periodically, so a change applies without a restart.
CREATE TABLE job_state (
  job text PRIMARY KEY,
  paused boolean NOT NULL DEFAULT false,
  paused_at timestamptz,
  cron text,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- When the projector first wrote the campaign's document (set once, kept across re-projections;
-- a campaign re-created after a reorg rollback is a new row and is measured again). Freshness is
-- first_published_at − created_at (the block time of NewCampaign). Rows that exist already were
-- published around the time they were indexed; using indexed_at keeps them out of the measure of
-- "new" campaigns instead of counting them as published at their next re-projection.
ALTER TABLE campaigns ADD COLUMN first_published_at timestamptz;
UPDATE campaigns SET first_published_at = indexed_at;
CREATE INDEX campaigns_first_published_idx ON campaigns (first_published_at) WHERE first_published_at IS NOT NULL;

-- An open reindex (indexer/reindex.ts): from the moment its row commits until the aliases point to
-- the new index, every outbox entry the projector consumes (its document went to the old index) is
-- copied into search_outbox_replay; the swap queues those entries again, so nothing written during
-- the reindex is missing from the new index. A row left by a crashed reindex is replayed and closed
-- by the next one.
CREATE TABLE search_reindexes (
  id bigserial PRIMARY KEY,
  index_prefix text NOT NULL,
  family text NOT NULL CHECK (family IN ('campaigns', 'opportunities')),
  index_name text NOT NULL,
  started_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE search_outbox_replay (
  reindex_id bigint NOT NULL REFERENCES search_reindexes (id) ON DELETE CASCADE,
  entity text NOT NULL,
  entity_id text NOT NULL,
  PRIMARY KEY (reindex_id, entity, entity_id)
);

CREATE FUNCTION search_outbox_keep_for_reindex() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_outbox_replay (reindex_id, entity, entity_id)
  SELECT DISTINCT r.id, d.entity, d.entity_id FROM consumed d CROSS JOIN search_reindexes r
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END;
$$;

CREATE TRIGGER search_outbox_keep_for_reindex
  AFTER DELETE ON search_outbox
  REFERENCING OLD TABLE AS consumed
  FOR EACH STATEMENT EXECUTE FUNCTION search_outbox_keep_for_reindex();
