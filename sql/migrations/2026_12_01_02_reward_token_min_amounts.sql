-- Up Migration
-- The DistributionCreator's reward-token whitelist (#33, GET /v4/tokens/reward): one row per
-- RewardTokenMinimumAmountUpdated(token, amount) log. The current minimum of a token is the amount
-- of its latest log (0 means the token was removed); keeping every log makes the table
-- chain-derived like roots and claims, so a reorg deletes the rows above the ancestor
-- (indexer/store/rollback.ts) and the earlier value shows through again.
-- Written by the campaigns job, which reads these logs with the other DistributionCreator events.
-- Logs below the campaigns cursor when this table is created are not read back: a deployment
-- indexed before it needs a one-off backfill of this event (not the whole job: the events table
-- is append-only, and a replay would announce every campaign again).
CREATE TABLE reward_token_min_amounts (
  chain_id integer NOT NULL,
  token text NOT NULL,
  amount numeric(78, 0) NOT NULL,
  block_number bigint NOT NULL,
  block_hash text NOT NULL,
  tx_hash text NOT NULL,
  log_index integer NOT NULL,
  PRIMARY KEY (chain_id, block_number, log_index)
);

-- The latest log of each token of a chain (the current minimum).
CREATE INDEX reward_token_min_amounts_token_idx ON reward_token_min_amounts (chain_id, token, block_number DESC, log_index DESC);
