-- Up Migration
-- Look-ups of issue #46 (GET /v4/clamm/pools, /v4/transactions/*).
--
-- A concentrated-liquidity pool's whole key as the hosted `clamm/pools` serves it: besides its tokens
-- and fee (already read), its tick spacing (V3 `tickSpacing()`, V4 PoolKey) and its hooks contract (V4
-- PoolKey; V3 pools have none: the zero address). Written by the metrics job with the rest of the row
-- (indexer/store/opportunityUnderlying.ts). Backfill: none needed by hand; rows written before this
-- migration keep null until the next metrics run reads the pool again (every run reads every pool
-- opportunity of a live campaign), and the route serves null meanwhile.
ALTER TABLE opportunity_underlying
  ADD COLUMN tick_spacing integer,
  ADD COLUMN hooks text;

-- GET /v4/transactions/campaigns and /v4/campaigns/tx find the campaigns a creation transaction
-- created by (chain, transaction hash); campaigns.tx_hash has been stored (lower-case) since the
-- foundation schema, so no backfill: the index makes the read one probe instead of a chain scan.
CREATE INDEX campaigns_chain_tx_idx ON campaigns (distribution_chain_id, tx_hash);
