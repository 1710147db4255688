-- Up Migration
-- What each counted root distributed, per campaign facets (issue #33: GET /v4/rewards/total/distributed
-- and /by-chains, /by-types, /by-protocols without filters, or with the filters PostgreSQL applies, in
-- milliseconds instead of one GROUP BY over every counted root, campaign and token per request).
-- A row sums the per-campaign changes of one root (api/reads/distributedRewards.ts PRICED: the root's
-- per-tree deltas since the counted root before it, priced at the token's daily close of the root's
-- day) over the campaigns sharing its facets. Private campaigns keep one row each
-- (private_campaign_db_id), so a caller seeing some of them adds exactly those. Built whole by
-- indexer/store/distributedFacetRollup.ts (the `distributed` job) in one REPEATABLE READ transaction.
CREATE TABLE distributed_facet_rollup (
  chain_id integer NOT NULL,
  -- The root's block time (Unix seconds): the window `from`..`to`; and its month (`YYYY-MM`, UTC) for `grain=month`.
  timestamp bigint NOT NULL,
  month text NOT NULL,
  token text NOT NULL,
  campaign_type integer NOT NULL,
  compute_chain_id integer NOT NULL,
  -- The campaign's reward token is a test token (counted with `test=true` only).
  is_test boolean NOT NULL,
  is_sub_campaign boolean NOT NULL,
  -- campaigns.id of a private campaign (campaign_privacy), null for the public ones.
  private_campaign_db_id text,
  amount numeric NOT NULL,
  usd double precision NOT NULL,
  unpriced boolean NOT NULL
);
CREATE INDEX distributed_facet_rollup_chain_time_idx ON distributed_facet_rollup (chain_id, timestamp);

-- The same without the token: the USD routes (total, /by-chains, /by-types, /by-protocols) group by
-- chain, month and type only, over about a tenth of the rows (tokens are many). Built from
-- distributed_facet_rollup in the same transaction.
CREATE TABLE distributed_type_rollup (
  chain_id integer NOT NULL,
  timestamp bigint NOT NULL,
  month text NOT NULL,
  campaign_type integer NOT NULL,
  compute_chain_id integer NOT NULL,
  is_test boolean NOT NULL,
  is_sub_campaign boolean NOT NULL,
  private_campaign_db_id text,
  usd double precision NOT NULL
);

-- Per configured chain, the live root position (loadLiveRoot; null: none) the rollups were built for.
-- The live root moves with the chain's clock alone (a pending root's dispute period ends), without a
-- write any trigger sees: a read compares its own live roots with these and answers exactly otherwise.
CREATE TABLE distributed_rollup_state (
  chain_id integer PRIMARY KEY,
  block_number bigint,
  log_index integer,
  built_at timestamptz NOT NULL DEFAULT now()
);

-- One row per transaction that wrote something the figures depend on since the last rebuild. Keyed by
-- the writer's own transaction id, so concurrent writers never wait on one another's marker; a rebuild
-- deletes exactly the markers its snapshot sees (a writer committing after that snapshot stays marked).
-- The rollup answers only while this table is empty.
CREATE TABLE distributed_rollup_dirty (
  xid bigint PRIMARY KEY,
  marked_at timestamptz NOT NULL DEFAULT now()
);

CREATE FUNCTION distributed_rollup_mark() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO distributed_rollup_dirty (xid) VALUES (txid_current()) ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;

-- Statement-level, for INSERT and DELETE: marks only when the statement wrote rows (`changed`), so an
-- upsert whose rows all conflicted (prices folded into an existing day) marks nothing here.
CREATE FUNCTION distributed_rollup_mark_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM changed) THEN
    INSERT INTO distributed_rollup_dirty (xid) VALUES (txid_current()) ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END $$;

-- Every table the figures read, on insert, delete and truncate; updates only of the columns they read
-- (row level with WHEN: an update of other columns, such as a campaign's fee or a price's min/max,
-- costs nothing). PostgreSQL allows transition tables on one event per trigger, hence one per event.
DO $$
DECLARE
  t record;
BEGIN
  FOR t IN SELECT * FROM (VALUES
    ('roots', 'chain_id, root, block_number, log_index, timestamp, revoked'),
    ('reward_trees', 'chain_id, root, status, seq'),
    ('reward_campaign_deltas', 'chain_id, seq, campaign_id, token, delta'),
    ('campaigns', 'id, distribution_chain_id, campaign_id, reward_token, parent_campaign_id, compute_chain_id, campaign_type'),
    ('campaign_overrides', 'campaign_db_id, block_number, log_index, compute_chain_id, campaign_type'),
    ('campaign_privacy', 'campaign_db_id, is_private'),
    ('tokens', 'id, chain_id, address, decimals, is_test'),
    ('token_price_history', 'token_id, day, close')
  ) AS v(name, cols) LOOP
    EXECUTE format('CREATE TRIGGER %1$s_rollup_insert AFTER INSERT ON %1$I REFERENCING NEW TABLE AS changed
      FOR EACH STATEMENT EXECUTE FUNCTION distributed_rollup_mark_changed()', t.name);
    EXECUTE format('CREATE TRIGGER %1$s_rollup_delete AFTER DELETE ON %1$I REFERENCING OLD TABLE AS changed
      FOR EACH STATEMENT EXECUTE FUNCTION distributed_rollup_mark_changed()', t.name);
    EXECUTE format('CREATE TRIGGER %1$s_rollup_truncate AFTER TRUNCATE ON %1$I
      FOR EACH STATEMENT EXECUTE FUNCTION distributed_rollup_mark()', t.name);
    EXECUTE format('CREATE TRIGGER %1$s_rollup_update AFTER UPDATE ON %1$I FOR EACH ROW
      WHEN ((OLD.%2$s) IS DISTINCT FROM (NEW.%3$s)) EXECUTE FUNCTION distributed_rollup_mark()',
      t.name, replace(t.cols, ', ', ', OLD.'), replace(t.cols, ', ', ', NEW.'));
  END LOOP;
END $$;
