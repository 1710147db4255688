-- Up Migration
-- A history snapshot keeps why its native APR is known or not (nativeAprRecord.status, #42,
-- docs/api-behaviour.md#native-apr): native_apr stays 0 when unknown, as the record's number, and the
-- native-APR history leaves such snapshots out of its buckets' means instead of averaging them as 0.
-- The closed set is domain/nativeAprStatus.ts NATIVE_APR_STATUSES. Rows written before: NULL, not
-- recorded (read as before, their value as stored).
ALTER TABLE opportunity_snapshots ADD COLUMN native_apr_status text
  CHECK (native_apr_status IN ('ok', 'unsupported-target', 'read-failed', 'no-history', 'unpriced', 'not-computed'));
