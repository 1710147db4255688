-- Up Migration
-- Documents Elasticsearch refused for good (a 4xx on the bulk item, e.g. a mapping violation):
-- recorded here with the reason instead of blocking the outbox behind them; transient refusals
-- (429, 5xx) are retried with the outbox entry.
CREATE TABLE search_dead_letters (
  id bigserial PRIMARY KEY,
  entity text NOT NULL,
  entity_id text NOT NULL,
  status integer NOT NULL,
  reason text NOT NULL,
  failed_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX search_dead_letters_entity_idx ON search_dead_letters (entity, entity_id);
