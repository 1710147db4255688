-- Up Migration
-- Protocols the back office added (POST /v4/protocols, #46). The registry in code (domain/protocols.ts: one protocol
-- per campaign type naming one, corrected through protocol_overrides) and these rows make one catalogue that every
-- read (GET /v4/protocols, /{id}, /count), the projector and templates resolve ids against (domain/protocols.ts
-- protocolCatalogue). Written only by the back office (POST creates, PATCH /v4/protocols/{id} edits the row itself);
-- no job writes or deletes it. An id of the registry is refused by the API (409).
CREATE TABLE protocols (
  id text PRIMARY KEY,
  name text NOT NULL,
  icon text NOT NULL,
  description text NOT NULL,
  url text NOT NULL,
  tags text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- An opportunity's protocol as the back office set it (PATCH /v4/opportunities/{id} `mainProtocolId`, the hosted
-- override's field): any protocol of the catalogue. NULL (every row the indexer writes) means the protocol of its
-- campaign type. The indexer's statements never name this column, so its runs keep the value.
ALTER TABLE opportunities ADD COLUMN main_protocol_id text;

-- Campaign templates an operator wrote (POST/PATCH/DELETE /v4/templates): served after the built-in ones of
-- domain/templates.ts, whose ids they may not take (the API answers 409). Written only by the back office.
CREATE TABLE campaign_templates (
  id text PRIMARY KEY,
  name text NOT NULL,
  icon text,
  description text NOT NULL DEFAULT '',
  base_config jsonb NOT NULL,
  completion_config jsonb NOT NULL,
  protocol_id text,
  action text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
