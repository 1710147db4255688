-- Up Migration
-- Identity-provider sign-in (OpenID Connect authorization code + PKCE).

-- One row per started flow, keyed by its `state`; consumed once (used_at) by the callback.
CREATE TABLE idp_flows (
  state text PRIMARY KEY,
  code_verifier text NOT NULL,
  nonce text NOT NULL,
  mode text NOT NULL CHECK (mode IN ('login', 'link')),
  -- For mode link: the session address the identity gets linked to.
  session_address text,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX idp_flows_expires_idx ON idp_flows (expires_at);

-- A provider identity (by issuer + subject, with its email) linked to one wallet.
CREATE TABLE idp_links (
  issuer text NOT NULL,
  subject text NOT NULL,
  email text NOT NULL CHECK (email = lower(email)),
  wallet_address text NOT NULL UNIQUE CHECK (wallet_address = lower(wallet_address)),
  linked_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (issuer, subject)
);
