-- Up Migration
-- Terms acceptance recorded through the API (POST /v4/users/{address}/terms) by the wallet's own
-- session: which message (its hash on the chain's DistributionCreator) the wallet accepted, when.
CREATE TABLE terms_acceptances (
  address text NOT NULL CHECK (address = lower(address)),
  chain_id integer NOT NULL,
  message_hash text NOT NULL,
  accepted_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (address, chain_id, message_hash)
);
