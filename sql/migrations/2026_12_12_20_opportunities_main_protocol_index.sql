-- Up Migration
-- Opportunities whose protocol the back office set (PATCH /v4/opportunities/{id} mainProtocolId): few, found at once
-- by the distributed routes, which then group by the campaign documents' protocol (api/reads/reward-totals).
CREATE INDEX opportunities_main_protocol_idx ON opportunities (main_protocol_id) WHERE main_protocol_id IS NOT NULL;
