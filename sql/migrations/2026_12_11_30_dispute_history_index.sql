-- Up Migration
-- Dispute history reads (#46: GET /v4/disputes, /v4/disputes/{chainId}, /v4/roots/dispute): a chain's Disputed logs
-- newest first, and the first Disputed / DisputeResolved after one (its resolution), walked per chain and kind in
-- chain order instead of filtering every Revoked row of the primary key.
CREATE INDEX distributor_events_kind_idx ON distributor_events (chain_id, kind, block_number, log_index);
