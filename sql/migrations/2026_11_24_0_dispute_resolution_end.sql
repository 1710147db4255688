-- DisputeResolved(false) recomputes the Distributor's endOfDisputePeriod from the resolution time
-- and emits no TreeUpdated (chain-facts §2.5): the roots job reads the new end from the contract
-- at that block and keeps it here, so the live root and chains.end_of_dispute_period follow it.
ALTER TABLE distributor_events ADD COLUMN end_of_dispute_period bigint;
