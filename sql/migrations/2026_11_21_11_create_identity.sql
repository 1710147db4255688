-- Up Migration
-- Sessions (wallet sign-in) and developer API keys (spec: Authentication; Developer API key record).

-- Sign-In with Ethereum nonces: single use (used_at set atomically at login), short-lived.
CREATE TABLE auth_nonces (
  nonce text PRIMARY KEY,
  address text NOT NULL CHECK (address = lower(address)),
  message text NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX auth_nonces_expires_idx ON auth_nonces (expires_at);

-- Revoked session JWTs by jti, kept until the token's own expiry (then useless anyway).
CREATE TABLE revoked_tokens (
  jti text PRIMARY KEY,
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX revoked_tokens_expires_idx ON revoked_tokens (expires_at);

-- Users known by wallet address (lower case); tier 0 Basic, 1 Plus, 2 VIP.
CREATE TABLE users (
  address text PRIMARY KEY CHECK (address = lower(address)),
  tags text[] NOT NULL DEFAULT '{}',
  tier integer NOT NULL DEFAULT 0 CHECK (tier >= 0),
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Developer API keys: only the sha-256 of the raw key is stored, never the key itself.
CREATE TABLE api_keys (
  id uuid PRIMARY KEY,
  owner_address text NOT NULL CHECK (owner_address = lower(owner_address)),
  prefix text NOT NULL,
  key_hash text NOT NULL UNIQUE,
  description text NOT NULL CHECK (char_length(description) BETWEEN 1 AND 255),
  tier integer NOT NULL DEFAULT 0 CHECK (tier >= 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);
CREATE INDEX api_keys_owner_idx ON api_keys (owner_address, created_at);

-- Calls per key × endpoint (method + route pattern) × UTC day, upserted in batches by the API.
CREATE TABLE api_key_usage (
  key_id uuid NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
  day date NOT NULL,
  endpoint text NOT NULL,
  count bigint NOT NULL CHECK (count >= 0),
  PRIMARY KEY (key_id, day, endpoint)
);

-- Fixed-window request counters shared by every API process (bucket = key id or client IP).
-- UNLOGGED: counters are disposable, losing them on a crash only resets the current second.
CREATE UNLOGGED TABLE rate_limit_windows (
  bucket text NOT NULL,
  window_start timestamptz NOT NULL,
  count integer NOT NULL,
  PRIMARY KEY (bucket, window_start)
);
CREATE INDEX rate_limit_windows_start_idx ON rate_limit_windows (window_start);
