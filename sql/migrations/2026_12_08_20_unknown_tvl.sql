-- Up Migration
-- An opportunity whose TVL cannot be known (not readable from its identifier, read failed, a token
-- unpriced, never computed) has a NULL tvl and apr, never 0, so a TVL filter, a histogram bin or a
-- sum leaves it out instead of counting it as nothing; tvl_status says why, /v4/health counts it (#42,
-- docs/api-behaviour.md#unknown-tvl). The closed set is indexer/transform/computeMetrics.ts TVL_STATUSES.
ALTER TABLE opportunity_metrics ALTER COLUMN tvl DROP NOT NULL, ALTER COLUMN apr DROP NOT NULL,
  ADD COLUMN tvl_status text NOT NULL DEFAULT 'ok'
    CHECK (tvl_status IN ('ok', 'unsupported-target', 'read-failed', 'unpriced', 'not-computed'));
ALTER TABLE opportunity_snapshots ALTER COLUMN tvl DROP NOT NULL, ALTER COLUMN apr DROP NOT NULL;

-- Rows written before: a NONE reading or an unpriced token stored 0. Which NONE was unsupported
-- rather than failed is not recorded; the next metrics run states it.
UPDATE opportunity_metrics SET tvl = NULL, apr = NULL,
  tvl_status = CASE WHEN inputs->'tvl'->>'method' = 'NONE' OR jsonb_array_length(inputs->'tvl'->'tokens') = 0
    THEN 'read-failed' ELSE 'unpriced' END,
  records = jsonb_set(records, '{tvlRecord,status}', to_jsonb(CASE WHEN inputs->'tvl'->>'method' = 'NONE'
    OR jsonb_array_length(inputs->'tvl'->'tokens') = 0 THEN 'read-failed' ELSE 'unpriced' END))
WHERE inputs->'tvl'->>'method' = 'NONE' OR jsonb_array_length(inputs->'tvl'->'tokens') = 0
  OR records->'tvlRecord' ? 'unpricedTokens';
UPDATE opportunity_metrics SET records = jsonb_set(records, '{tvlRecord,status}', '"ok"')
WHERE tvl_status = 'ok' AND records ? 'tvlRecord';

-- Their search documents still hold 0, and the next run stores the same NULL (no change to enqueue):
-- project them again.
INSERT INTO search_outbox (entity, entity_id)
SELECT 'opportunity', opportunity_id FROM opportunity_metrics WHERE tvl_status <> 'ok';
