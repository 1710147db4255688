-- Up Migration
-- Live campaigns per chain (start ≤ now < end): scanning by end first keeps the scan to campaigns
-- not yet ended, instead of every campaign that ever started (bench:search at 1M campaigns).
CREATE INDEX campaigns_compute_chain_end_idx ON campaigns (compute_chain_id, end_timestamp) INCLUDE (start_timestamp);
