-- Up Migration
-- Every back-office write (issue #46: reference data, programs, blacklists, opportunity curation) records who, when,
-- what and the entity's state before and after, in the write's own transaction. Read newest first overall and per
-- entity (GET /v4/audit).
CREATE TABLE back_office_audit (
  id bigserial PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT now(),
  actor text NOT NULL,
  request_id text,
  action text NOT NULL CHECK (action IN ('create', 'update', 'delete')),
  entity text NOT NULL,
  entity_id text NOT NULL,
  before jsonb,
  after jsonb
);
CREATE INDEX back_office_audit_entity_idx ON back_office_audit (entity, entity_id, id DESC);
