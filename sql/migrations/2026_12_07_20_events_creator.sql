-- The `creator` filter of the event log (GET /v4/events, webhooks) read through an index (issue #43
-- F2): it was a per-row probe of campaigns, so `after=0&creator=0x…` read the whole events table
-- (1.78 s at 2M rows) and every stream with it read it again on each append. An event about a
-- campaign now carries its campaign's creator (lower case; a campaign's creator never changes),
-- filled by domain/tables/events.ts on append, and the filter reads (creator, id) like the others.
ALTER TABLE events ADD COLUMN creator text;
UPDATE events e SET creator = lower(c.creator) FROM campaigns c WHERE c.id = e.campaign_db_id;
CREATE INDEX events_creator_id ON events (creator, id) WHERE creator IS NOT NULL;
