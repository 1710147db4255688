-- Up Migration
-- Creators of campaigns read through an index (audit h-audit, creatorsPrivacy): implicit creators
-- (GET /v4/creators, /v4/creators/{creator} and its dashboard, campaigns and opportunities) were the
-- DISTINCT lower(creator) of every campaigns row, read in full on every request; they are now walked
-- one distinct address at a time (api/reads/creators.ts implicitCreators), each checked for a
-- campaign the caller may see. The dashboard's `lower(creator) = ANY(…)` reads it too.
CREATE INDEX campaigns_creator_idx ON campaigns (lower(creator));
