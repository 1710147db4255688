-- Up Migration
-- Who opened a dispute (#33: the hosted GET /v4/roots/live serves `disputer` while one is open). The
-- Disputed log carries only the reason; the roots job reads the Distributor's `disputer()` at the log's
-- block (the state after it) and keeps it here. Disputes indexed before this column have none (null):
-- /v4/roots/live then leaves `disputer` out, as for a dispute resolved in its own block.
ALTER TABLE distributor_events ADD COLUMN disputer text;
