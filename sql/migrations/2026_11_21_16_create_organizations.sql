-- Up Migration
-- Organizations (spec: POST /v4/organizations): named groups created by a wallet (session or API
-- key owner). Names are unique per owner, case-insensitively.
CREATE TABLE organizations (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 128),
  owner_address text NOT NULL CHECK (owner_address = lower(owner_address)),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX organizations_owner_name_idx ON organizations (owner_address, lower(name));
