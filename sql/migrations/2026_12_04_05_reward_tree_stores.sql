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
