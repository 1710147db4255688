-- Up Migration
-- Campaign lists (spec: GET /v4/campaigns `listOwner` + `campaignLists`): named sets of internal
-- campaign ids owned by an address. Read by the campaigns list filter; the CRUD routes come later.
-- Owner and name are stored lower-cased so look-ups are case-insensitive.
CREATE TABLE campaign_lists (
  owner text NOT NULL CHECK (owner = lower(owner)),
  name text NOT NULL CHECK (name = lower(name)),
  campaign_ids text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (owner, name)
);
