-- Up Migration
-- GET /v4/key-value-stores/{key}/entries lists a store's entries oldest first, as documented (it was
-- by address; issue #44): these indexes serve the page in that order, with and without `value`.
CREATE INDEX kv_entries_store_created_idx ON kv_entries (store_key, created_at, address);
DROP INDEX kv_entries_value_idx;
CREATE INDEX kv_entries_value_idx ON kv_entries (store_key, value, created_at, address);
