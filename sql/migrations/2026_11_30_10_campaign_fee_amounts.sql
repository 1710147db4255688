-- Up Migration
-- The creation fee the DistributionCreator took from each campaign (#33, GET /v4/accounting/revenues), in the reward
-- token's base units. NewCampaign carries the net amount only (docs/contracts.md#fees-and-rebates), so the fee is read
-- from the creation transaction's ERC20 transfers by the campaign-fees job; NULL means not read yet. Existing rows start
-- NULL and are filled by that job's next runs (the chain is the only source: no SQL can derive them).
ALTER TABLE campaigns ADD COLUMN fee_amount numeric(78, 0) CHECK (fee_amount >= 0);
CREATE INDEX campaigns_fee_pending_idx ON campaigns (distribution_chain_id, block_number, log_index) WHERE fee_amount IS NULL;
