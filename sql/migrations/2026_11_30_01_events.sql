-- Up Migration
-- The event log integrators read (GET /v4/events, issue #32): one row per change, written in the
-- transaction of the change itself (domain/tables/events.ts), so a rolled-back change leaves none.
-- Subject columns are filters; `block_number` lets a reorg rollback retract the events of the
-- blocks it removes (`retracted` flag plus one `retracted` event naming them).
CREATE TABLE events (
  id bigserial PRIMARY KEY,
  type text NOT NULL,
  chain_id int,
  campaign_db_id text,
  opportunity_id text,
  address text,
  root text,
  block_number bigint,
  retracted boolean NOT NULL DEFAULT false,
  payload jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now()
);
-- Paging is by id (the primary key); each filter reads its own (column, id) index.
CREATE INDEX events_type_id ON events (type, id);
CREATE INDEX events_chain_id_id ON events (chain_id, id);
CREATE INDEX events_campaign_id ON events (campaign_db_id, id) WHERE campaign_db_id IS NOT NULL;
CREATE INDEX events_opportunity_id ON events (opportunity_id, id) WHERE opportunity_id IS NOT NULL;
CREATE INDEX events_address_id ON events (address, id) WHERE address IS NOT NULL;
-- The retention job's predicate, and the rollback's.
CREATE INDEX events_created_at ON events (created_at);
CREATE INDEX events_chain_block ON events (chain_id, block_number) WHERE block_number IS NOT NULL AND NOT retracted;

-- A committed append wakes the API's open streams (LISTEN events); one notification per statement,
-- delivered at commit. Streams also poll, so a notification lost with a connection loses nothing.
CREATE FUNCTION notify_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('events', '');
  RETURN NULL;
END;
$$;
CREATE TRIGGER events_notify AFTER INSERT ON events FOR EACH STATEMENT EXECUTE FUNCTION notify_events();
