-- Up Migration
-- The two reads of GET /v4/rewards/total/distributed that still took the exact path (issue #33; docs/benchmarks/
-- report.md "Reads of #33 at full size"): a campaign `status` filter (SOON, LIVE, PAST: the campaign's start and
-- end against the clock) and /by-opportunities (the top opportunities, and how many of their campaigns
-- distributed). Rebuilt whole with the facet rollup by indexer/store/distributedFacetRollup.ts (the `distributed`
-- job), in the same transaction, under the same dirty markers and live-root check.

-- A campaign's status at a read's `now` is start_timestamp > now (SOON), end_timestamp <= now (PAST), or neither
-- (LIVE). The rollups below keep each campaign's start and end clamped to [valid_from, valid_until + 1]: for any
-- `now` in [valid_from, valid_until] a clamped bound compares with `now` as the real one does, and the campaigns
-- whose bounds lie outside that horizon (nearly all) fall into a few groups. A read whose clock is outside it
-- answers exactly. One row; the job rebuilds before the clock nears valid_until.
CREATE TABLE distributed_rollup_clock (
  valid_from bigint NOT NULL,
  valid_until bigint NOT NULL
);

-- distributed_facet_rollup's rows split by the clamped start and end (GET /v4/rewards/total/distributed/by-tokens
-- with a status filter).
CREATE TABLE distributed_status_rollup (
  chain_id integer NOT NULL,
  timestamp bigint NOT NULL,
  month text NOT NULL,
  token text NOT NULL,
  campaign_type integer NOT NULL,
  compute_chain_id integer NOT NULL,
  is_test boolean NOT NULL,
  is_sub_campaign boolean NOT NULL,
  private_campaign_db_id text,
  start_timestamp bigint NOT NULL,
  end_timestamp bigint NOT NULL,
  amount numeric NOT NULL,
  usd double precision NOT NULL,
  unpriced boolean NOT NULL
);
CREATE INDEX distributed_status_rollup_chain_time_idx ON distributed_status_rollup (chain_id, timestamp);

-- The same without the token (the USD routes with a status filter), as distributed_type_rollup.
CREATE TABLE distributed_status_type_rollup (
  chain_id integer NOT NULL,
  timestamp bigint NOT NULL,
  month text NOT NULL,
  campaign_type integer NOT NULL,
  compute_chain_id integer NOT NULL,
  is_test boolean NOT NULL,
  is_sub_campaign boolean NOT NULL,
  private_campaign_db_id text,
  start_timestamp bigint NOT NULL,
  end_timestamp bigint NOT NULL,
  usd double precision NOT NULL
);

-- Per opportunity (the campaign's opportunity_id, or its type, compute chain and main parameter when it has none),
-- root time and facets: USD, and `campaigns`, how many campaigns changed at that root whose previous change was at
-- `prev_timestamp` (null: their first). A campaign counts in a window once, at its first change inside it: the
-- rows of the window whose prev_timestamp is null or before `from`.
CREATE TABLE distributed_opportunity_rollup (
  chain_id integer NOT NULL,
  timestamp bigint NOT NULL,
  prev_timestamp bigint,
  campaign_type integer NOT NULL,
  compute_chain_id integer NOT NULL,
  opportunity_id text,
  main_parameter text,
  is_test boolean NOT NULL,
  is_sub_campaign boolean NOT NULL,
  private_campaign_db_id text,
  start_timestamp bigint NOT NULL,
  end_timestamp bigint NOT NULL,
  usd double precision NOT NULL,
  campaigns integer NOT NULL
);
CREATE INDEX distributed_opportunity_rollup_chain_time_idx ON distributed_opportunity_rollup (chain_id, timestamp);

-- distributed_opportunity_rollup over every root (a window holding them all: the usual top), a tenth of its rows:
-- each campaign is in one group, so `campaigns` adds up.
CREATE TABLE distributed_opportunity_total (
  chain_id integer NOT NULL,
  campaign_type integer NOT NULL,
  compute_chain_id integer NOT NULL,
  opportunity_id text,
  main_parameter text,
  is_test boolean NOT NULL,
  is_sub_campaign boolean NOT NULL,
  private_campaign_db_id text,
  start_timestamp bigint NOT NULL,
  end_timestamp bigint NOT NULL,
  usd double precision NOT NULL,
  campaigns integer NOT NULL
);

-- Private campaigns' rows, which a caller adds to the public figures (few).
CREATE INDEX distributed_opportunity_total_private_idx ON distributed_opportunity_total (private_campaign_db_id)
  WHERE private_campaign_db_id IS NOT NULL;

-- Per opportunity, over every root and chain, the public campaigns of non-test reward tokens (the filters' defaults:
-- the analytics view's top): read in USD order by its index, a top of `items` costs `items` rows; the private
-- campaigns a caller sees add to it from distributed_opportunity_total.
CREATE TABLE distributed_opportunity_rank (
  opportunity_id text,
  usd double precision NOT NULL,
  campaigns integer NOT NULL
);
CREATE INDEX distributed_opportunity_rank_top_idx ON distributed_opportunity_rank (usd DESC, opportunity_id COLLATE "C");
CREATE INDEX distributed_opportunity_rank_id_idx ON distributed_opportunity_rank (opportunity_id);

-- The rollups now also read the campaigns' start, end, opportunity and main parameter: an update of those marks
-- them dirty too (inserts, deletes and truncates already do: 2026_12_03_08).
CREATE TRIGGER campaigns_rollup_update_status AFTER UPDATE ON campaigns FOR EACH ROW
  WHEN ((OLD.start_timestamp, OLD.end_timestamp, OLD.opportunity_id, OLD.main_parameter)
    IS DISTINCT FROM (NEW.start_timestamp, NEW.end_timestamp, NEW.opportunity_id, NEW.main_parameter))
  EXECUTE FUNCTION distributed_rollup_mark();
CREATE TRIGGER campaign_overrides_rollup_update_status AFTER UPDATE ON campaign_overrides FOR EACH ROW
  WHEN ((OLD.start_timestamp, OLD.end_timestamp, OLD.opportunity_id, OLD.main_parameter)
    IS DISTINCT FROM (NEW.start_timestamp, NEW.end_timestamp, NEW.opportunity_id, NEW.main_parameter))
  EXECUTE FUNCTION distributed_rollup_mark();

-- Until the job rebuilds, these are empty and the clock row missing: every read they serve answers exactly.
-- The facet rollups built before this migration have no clock row either; mark them dirty so the job's next run
-- builds all of them together.
INSERT INTO distributed_rollup_dirty (xid) VALUES (txid_current()) ON CONFLICT DO NOTHING;
