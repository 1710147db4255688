-- Up Migration
-- Addresses an operator excludes from rewards (#46: GET /v4/blacklists, /v4/blacklists/check/{address}, back-office
-- POST /v4/blacklists and DELETE /v4/blacklists/user/{address}), one row per (chain, user, pool); pool_address is the
-- zero address for "every pool of the chain". Back-office writes record an audit row (back_office_audit) in the same
-- transaction. Listed newest first overall and per chain; checked by user.
CREATE TABLE blacklists (
  id text PRIMARY KEY,
  chain_id integer NOT NULL,
  user_address text NOT NULL CHECK (user_address = lower(user_address)),
  pool_address text NOT NULL CHECK (pool_address = lower(pool_address)),
  reason text,
  arrest_timestamp bigint NOT NULL,
  UNIQUE (chain_id, user_address, pool_address)
);
CREATE INDEX blacklists_user_idx ON blacklists (user_address, chain_id);
CREATE INDEX blacklists_recent_idx ON blacklists (arrest_timestamp DESC, id);
CREATE INDEX blacklists_chain_recent_idx ON blacklists (chain_id, arrest_timestamp DESC, id);
