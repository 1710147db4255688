-- Up Migration
-- Creators registry (read API issue, "Creators"): a named creator groups the addresses it creates
-- campaigns from. Addresses and tags are stored lower-case / as given; `id` is the public slug.
-- An address with campaigns but no row here is still served as an implicit creator (id = address).
-- Templates need no table: they are a static registry (indexer/templates.ts), one per campaign type
-- we can encode. Forward-only: fix with a new file, never edit this one.

CREATE TABLE creators (
  id text PRIMARY KEY CHECK (id ~ '^[a-z0-9][a-z0-9-]{0,63}$'),
  name text NOT NULL,
  icon text,
  rebate_fee double precision NOT NULL DEFAULT 0 CHECK (rebate_fee >= 0 AND rebate_fee <= 100),
  addresses text[] NOT NULL DEFAULT '{}',
  tags text[] NOT NULL DEFAULT '{}',
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (addresses::text = lower(addresses::text))
);
CREATE INDEX creators_addresses_idx ON creators USING gin (addresses);
