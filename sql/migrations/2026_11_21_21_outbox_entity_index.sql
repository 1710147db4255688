-- The projector claims, with each batch, the entries still waiting for the same entities: a
-- document built now from PostgreSQL already reflects every change committed before, so those
-- entries are done too (an opportunity whose campaigns arrive over many indexer batches is then
-- rebuilt once per projector batch, not once per indexer batch).
CREATE INDEX search_outbox_entity_idx ON search_outbox (entity, entity_id);
