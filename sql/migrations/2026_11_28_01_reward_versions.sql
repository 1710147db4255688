-- Reward amounts stored by change (issue #30). A tree is cumulative per (recipient, token) and most
-- leaves do not change between roots, so instead of a full copy per root each stored tree gets a
-- sequence number and a leaf (or breakdown) is one version valid for the trees [since_seq, until_seq):
-- storing a tree closes the versions it changed or dropped and opens the ones it changed or added
-- (indexer/store/rewardTrees.ts). `rewards` and `reward_breakdowns` become views with their old
-- columns, so every reader keeps working; readers that ask about any tree use the versions directly.

-- Ingestion order of the stored trees (one sequence for every chain: only the order within a chain
-- matters, and a number is never reused, even after its tree is rolled back).
CREATE SEQUENCE reward_tree_seq;
ALTER TABLE reward_trees ADD COLUMN seq bigint UNIQUE;

CREATE TABLE reward_leaf_versions (
  chain_id integer NOT NULL,
  recipient text NOT NULL CHECK (recipient = lower(recipient)),
  token text NOT NULL CHECK (token = lower(token)),
  amount numeric(78, 0) NOT NULL CHECK (amount >= 0),
  since_seq bigint NOT NULL,
  until_seq bigint CHECK (until_seq > since_seq),
  PRIMARY KEY (chain_id, recipient, token, since_seq)
);
-- The versions of the latest stored tree of each chain (what the next tree is compared with).
CREATE UNIQUE INDEX reward_leaf_versions_open_idx ON reward_leaf_versions (chain_id, recipient, token) WHERE until_seq IS NULL;
CREATE INDEX reward_leaf_versions_token_idx ON reward_leaf_versions (chain_id, token, since_seq);
CREATE INDEX reward_leaf_versions_recipient_idx ON reward_leaf_versions (recipient, chain_id);

CREATE TABLE reward_breakdown_versions (
  chain_id integer NOT NULL,
  recipient text NOT NULL CHECK (recipient = lower(recipient)),
  token text NOT NULL CHECK (token = lower(token)),
  campaign_id text NOT NULL,
  reason text NOT NULL DEFAULT '',
  amount numeric(78, 0) NOT NULL CHECK (amount >= 0),
  since_seq bigint NOT NULL,
  until_seq bigint CHECK (until_seq > since_seq),
  PRIMARY KEY (chain_id, recipient, token, campaign_id, reason, since_seq)
);
CREATE UNIQUE INDEX reward_breakdown_versions_open_idx ON reward_breakdown_versions (chain_id, recipient, token, campaign_id, reason)
  WHERE until_seq IS NULL;
CREATE INDEX reward_breakdown_versions_campaign_idx ON reward_breakdown_versions (chain_id, campaign_id, since_seq);
CREATE INDEX reward_breakdown_versions_recipient_idx ON reward_breakdown_versions (recipient, chain_id);

-- Existing trees: numbered in their roots' chain order; each keeps its own rows as versions of its
-- seq alone, the latest of each chain's left open (the next tree is compared with it).
UPDATE reward_trees t SET seq = o.seq
FROM (
  SELECT t2.chain_id, t2.root, nextval('reward_tree_seq') AS seq
  FROM (
    SELECT t3.chain_id, t3.root,
      (SELECT min(r.block_number * 1000000 + r.log_index) FROM roots r WHERE r.chain_id = t3.chain_id AND r.root = t3.root) AS position,
      t3.created_at
    FROM reward_trees t3 WHERE t3.status = 'verified'
    ORDER BY position NULLS FIRST, t3.created_at
  ) t2
) o
WHERE o.chain_id = t.chain_id AND o.root = t.root;

INSERT INTO reward_leaf_versions (chain_id, recipient, token, amount, since_seq, until_seq)
SELECT r.chain_id, r.recipient, r.token, r.amount, t.seq,
  CASE WHEN t.seq = (SELECT max(t2.seq) FROM reward_trees t2 WHERE t2.chain_id = t.chain_id) THEN NULL ELSE t.seq + 1 END
FROM rewards r JOIN reward_trees t ON t.chain_id = r.chain_id AND t.root = r.root AND t.seq IS NOT NULL;

INSERT INTO reward_breakdown_versions (chain_id, recipient, token, campaign_id, reason, amount, since_seq, until_seq)
SELECT b.chain_id, b.recipient, b.token, b.campaign_id, b.reason, b.amount, t.seq,
  CASE WHEN t.seq = (SELECT max(t2.seq) FROM reward_trees t2 WHERE t2.chain_id = t.chain_id) THEN NULL ELSE t.seq + 1 END
FROM reward_breakdowns b JOIN reward_trees t ON t.chain_id = b.chain_id AND t.root = b.root AND t.seq IS NOT NULL;

DROP TABLE reward_breakdowns;
DROP TABLE rewards;

-- The amounts of each stored tree, as before: a version belongs to every tree whose seq it spans.
CREATE VIEW rewards AS
  SELECT t.chain_id, t.root, v.recipient, v.token, v.amount
  FROM reward_trees t
  JOIN reward_leaf_versions v ON v.chain_id = t.chain_id AND v.since_seq <= t.seq AND (v.until_seq IS NULL OR v.until_seq > t.seq);

CREATE VIEW reward_breakdowns AS
  SELECT t.chain_id, t.root, v.recipient, v.token, v.campaign_id, v.reason, v.amount
  FROM reward_trees t
  JOIN reward_breakdown_versions v ON v.chain_id = t.chain_id AND v.since_seq <= t.seq AND (v.until_seq IS NULL OR v.until_seq > t.seq);
