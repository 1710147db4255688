-- Up Migration
-- Reward roots (Distributor TreeUpdated / Revoked / Disputed / DisputeResolved), the reward trees
-- published for them (content-addressed by root, verified before any reward is stored) and
-- claims (Claimed deltas; docs/contracts.md#distributor-events). Addresses and hashes are stored lower-case.

-- One row per TreeUpdated log. A root can appear more than once (a revoke re-emits the previous
-- root). `revoked` is derived: true when the next root-lifecycle event after this row is a
-- Revoked log (docs/contracts.md#dispute-period-and-the-live-root); the roots job recomputes it in every batch.
CREATE TABLE roots (
  chain_id integer NOT NULL,
  root text NOT NULL CHECK (root = lower(root)),
  ipfs_hash text NOT NULL CHECK (ipfs_hash = lower(ipfs_hash)),
  end_of_dispute_period bigint NOT NULL,
  block_number bigint NOT NULL,
  block_hash text NOT NULL,
  tx_hash text NOT NULL,
  log_index integer NOT NULL,
  timestamp bigint NOT NULL,
  revoked boolean NOT NULL DEFAULT false,
  PRIMARY KEY (chain_id, block_number, log_index)
);
CREATE INDEX roots_chain_root_idx ON roots (chain_id, root);

-- The other root-lifecycle logs: Revoked (marks the previous root), Disputed (opens a dispute on
-- the latest root), DisputeResolved (closes it; `valid` true means a revoke follows).
CREATE TABLE distributor_events (
  chain_id integer NOT NULL,
  kind text NOT NULL CHECK (kind IN ('revoked', 'disputed', 'dispute_resolved')),
  reason text,
  valid boolean,
  block_number bigint NOT NULL,
  block_hash text NOT NULL,
  tx_hash text NOT NULL,
  log_index integer NOT NULL,
  timestamp bigint NOT NULL,
  PRIMARY KEY (chain_id, block_number, log_index)
);

-- Verification state of the tree published for a root. Content-addressed (a root names its
-- content), so not chain-derived: a reorg never changes what a root's tree is.
CREATE TABLE reward_trees (
  chain_id integer NOT NULL,
  root text NOT NULL CHECK (root = lower(root)),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'verified', 'mismatch', 'unavailable')),
  computed_root text,
  leaves integer,
  error text,
  attempts integer NOT NULL DEFAULT 0,
  checked_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (chain_id, root)
);
CREATE INDEX reward_trees_todo_idx ON reward_trees (chain_id, checked_at NULLS FIRST) WHERE status IN ('pending', 'unavailable');

-- Leaves of verified trees only: cumulative amount per (recipient, token) at a root.
CREATE TABLE rewards (
  chain_id integer NOT NULL,
  root text NOT NULL,
  recipient text NOT NULL CHECK (recipient = lower(recipient)),
  token text NOT NULL CHECK (token = lower(token)),
  amount numeric(78, 0) NOT NULL CHECK (amount >= 0),
  PRIMARY KEY (chain_id, root, recipient, token)
);
CREATE INDEX rewards_recipient_idx ON rewards (recipient, chain_id, root);
CREATE INDEX rewards_chain_root_token_idx ON rewards (chain_id, root, token);

-- Per-campaign split of each leaf (they sum to the leaf's amount; checked before storing).
CREATE TABLE reward_breakdowns (
  chain_id integer NOT NULL,
  root text NOT NULL,
  recipient text NOT NULL CHECK (recipient = lower(recipient)),
  token text NOT NULL CHECK (token = lower(token)),
  campaign_id text NOT NULL,
  reason text NOT NULL DEFAULT '',
  amount numeric(78, 0) NOT NULL CHECK (amount >= 0),
  PRIMARY KEY (chain_id, root, recipient, token, campaign_id, reason),
  FOREIGN KEY (chain_id, root, recipient, token) REFERENCES rewards (chain_id, root, recipient, token) ON DELETE CASCADE
);
CREATE INDEX reward_breakdowns_campaign_idx ON reward_breakdowns (chain_id, campaign_id, root);
CREATE INDEX reward_breakdowns_recipient_idx ON reward_breakdowns (recipient, chain_id, root);

-- One row per Claimed log: `amount` is the delta paid by that call (may be 0); totals are sums.
CREATE TABLE claims (
  chain_id integer NOT NULL,
  recipient text NOT NULL CHECK (recipient = lower(recipient)),
  token text NOT NULL CHECK (token = lower(token)),
  amount numeric(78, 0) NOT NULL CHECK (amount >= 0),
  block_number bigint NOT NULL,
  block_hash text NOT NULL,
  tx_hash text NOT NULL,
  log_index integer NOT NULL,
  timestamp bigint NOT NULL,
  PRIMARY KEY (chain_id, tx_hash, log_index)
);
CREATE INDEX claims_recipient_idx ON claims (recipient, chain_id, token);
CREATE INDEX claims_chain_token_idx ON claims (chain_id, token);
CREATE INDEX claims_chain_block_idx ON claims (chain_id, block_number);
