-- DisputeResolved(false) recomputes the Distributor's endOfDisputePeriod from the resolution time
-- and emits no TreeUpdated (docs/contracts.md#dispute-period-and-the-live-root): the roots job reads the new end from the contract
-- at that block and keeps it here, so the live root and chains.end_of_dispute_period follow it.
ALTER TABLE distributor_events ADD COLUMN end_of_dispute_period bigint;
