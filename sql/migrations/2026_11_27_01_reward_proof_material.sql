-- Proof material of the claimable reward trees (issue #30; domain/rewardTreeLayout.ts): the API
-- answers a proof with two indexed reads (the leaf's chunk, the tree's top) and never builds a tree.
-- Kept for the last two non-revoked roots of each chain (the live one is one of them); older roots
-- keep their amounts (rewards, reward_breakdowns) and lose this.

-- The tree's layout: leaves, chunk size and the top layers (chunk roots up to the root, packed).
ALTER TABLE reward_trees
  ADD COLUMN chunk_leaves integer CHECK (chunk_leaves > 1),
  ADD COLUMN top_layers bytea;

-- Sorted leaf hashes in aligned chunks of chunk_leaves × 32 bytes; first_hash finds a leaf's chunk.
CREATE TABLE reward_tree_chunks (
  chain_id integer NOT NULL,
  root text NOT NULL,
  chunk integer NOT NULL CHECK (chunk >= 0),
  first_hash bytea NOT NULL CHECK (length(first_hash) = 32),
  hashes bytea NOT NULL CHECK (length(hashes) % 32 = 0 AND length(hashes) > 0),
  PRIMARY KEY (chain_id, root, chunk),
  FOREIGN KEY (chain_id, root) REFERENCES reward_trees (chain_id, root) ON DELETE CASCADE
);
CREATE INDEX reward_tree_chunks_first_hash_idx ON reward_tree_chunks (chain_id, root, first_hash);
-- Hashes are random bytes: compressing them only costs CPU.
ALTER TABLE reward_tree_chunks ALTER COLUMN hashes SET STORAGE EXTERNAL;
ALTER TABLE reward_trees ALTER COLUMN top_layers SET STORAGE EXTERNAL;
