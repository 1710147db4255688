-- Up Migration
-- Reference data an operator curates through the back office (#46): a token's icon, verification, display symbol,
-- name, type or test flag; a chain's name, icon and explorers. The jobs that write these rows (tokens, and every job
-- that writes the configured chains) leave alone each column named in `curated_fields`: an operator's edit survives
-- the next run, and reads need no second table (the row holds the value served). A field stays curated until the row
-- is deleted (tokens) or the column edited by hand.
ALTER TABLE tokens ADD COLUMN curated_fields text[] NOT NULL DEFAULT '{}';
ALTER TABLE chains ADD COLUMN curated_fields text[] NOT NULL DEFAULT '{}';

-- GET /v4/audit filtered by entity alone, newest first (entity + entity_id uses back_office_audit_entity_idx; the
-- unfiltered read walks the primary key backwards).
CREATE INDEX back_office_audit_entity_newest_idx ON back_office_audit (entity, id DESC);

-- A protocol's name, icon, description, url and tags as the back office corrected them (PATCH /v4/protocols/{id}).
-- Protocols are a registry in code (domain/protocols.ts, one per campaign type naming one); every read and the
-- projector apply the non-null columns of this row over the registry's values. No job writes it.
CREATE TABLE protocol_overrides (
  id text PRIMARY KEY,
  name text,
  icon text,
  description text,
  url text,
  tags text[],
  updated_at timestamptz NOT NULL DEFAULT now()
);
