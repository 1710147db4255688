-- Up Migration
-- A big reward tree is stored from two connections at once (issue #30: a first root of a million leaves in ≤ 60 s;
-- indexer/store/treeStore.ts): the entries are staged in tables both can read (schema reward_staging, unlogged,
-- dropped when the store ends), and one share of the breakdown versions is committed by the second connection just
-- before the first commits the tree. A store that started and did not commit keeps its row here, so the next store
-- of the chain undoes what it left (indexer/store/treeStoreRepair.ts) before any tree gets a higher seq.
-- IF NOT EXISTS: a database reset by dropping its public schema alone keeps this one.
CREATE SCHEMA IF NOT EXISTS reward_staging;

CREATE TABLE reward_tree_stores (
  seq bigint PRIMARY KEY,
  chain_id integer NOT NULL,
  root text NOT NULL,
  started_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX reward_tree_stores_chain_idx ON reward_tree_stores (chain_id);

-- Two indexes of the breakdown versions that every read and write already finds in the primary key
-- (chain_id, recipient, token, campaign_id, reason, since_seq): a recipient's breakdowns (every read names
-- the chain) and a key's open version (a handful of versions per key, until_seq checked on the row). Each
-- cost ~2.5 s of a first 1M-leaf root's inserts (bench:rewards) and ~150 MB; the plans of the reads that
-- used them are the same or an index scan of the primary key at 1M leaves (EXPLAIN ANALYZE, #30 note).
DROP INDEX reward_breakdown_versions_open_idx;
DROP INDEX reward_breakdown_versions_recipient_idx;
