-- Up Migration
-- Key-value stores (spec: Key-value stores): self-service stores of integrators, their entries, and
-- the creator quotas the back office grants (which also make a creator allow-listed to create).

CREATE TABLE kv_quotas (
  owner_address text PRIMARY KEY CHECK (owner_address = lower(owner_address)),
  max_configs integer NOT NULL CHECK (max_configs >= 1),
  max_size_limit integer NOT NULL CHECK (max_size_limit BETWEEN 1 AND 1000000),
  allowed_types text[] NOT NULL CHECK (cardinality(allowed_types) >= 1),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- `key` is canonical: `<owner address>:<suffix>`. `access_mode` API_KEY: only the owner writes
-- (its API key or session); PUBLIC: any signed-in wallet may also write and delete its own entry. `entry_count` is maintained by the writers under
-- the store row's lock, so `entry_count <= size_limit` holds under any concurrency.
CREATE TABLE kv_stores (
  key text PRIMARY KEY,
  id uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
  owner_address text NOT NULL CHECK (owner_address = lower(owner_address)),
  type text NOT NULL CHECK (type IN ('WHITELIST', 'BLACKLIST', 'BOOST', 'REFERRER', 'FORWARDER', 'APR')),
  description text CHECK (char_length(description) <= 512),
  size_limit integer NOT NULL CHECK (size_limit BETWEEN 1 AND 1000000),
  public_read boolean NOT NULL DEFAULT true,
  access_mode text NOT NULL DEFAULT 'API_KEY' CHECK (access_mode IN ('API_KEY', 'PUBLIC')),
  entry_count integer NOT NULL DEFAULT 0 CHECK (entry_count >= 0 AND entry_count <= size_limit),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX kv_stores_owner_idx ON kv_stores (owner_address);

-- One entry per address (lower case); `written_by` is the caller that last wrote it (its address).
CREATE TABLE kv_entries (
  store_key text NOT NULL REFERENCES kv_stores (key) ON DELETE CASCADE,
  address text NOT NULL CHECK (address = lower(address)),
  value text NOT NULL CHECK (char_length(value) <= 1024),
  written_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (store_key, address)
);
CREATE INDEX kv_entries_value_idx ON kv_entries (store_key, value);
