-- Up Migration
-- Fair webhooks (issue #43, F6): a deliverer claims a webhook with a lease instead of holding its
-- cursor row locked in a transaction across the outbound requests (a receiver answering in ~10 s kept
-- a worker and a FOR UPDATE transaction open for up to 100 deliveries). The claim sets `lease_token`
-- and `leased_until` in one short statement; each delivery's result is recorded in its own short
-- transaction only while the token still matches (which renews the lease); the release clears both.
-- A worker that dies leaves its lease to expire (`leased_until`: one attempt's timeout and a margin),
-- and another deliverer takes the webhook over from its cursor (at least once, as before).
-- `served_at`: when the webhook last had its turn (claimed or released; null: never); `owner_turn_at`:
-- when its owner last had one, copied onto each of the owner's cursors (at most WEBHOOKS_MAX_PER_OWNER
-- rows) so that the queue is one index. Claims walk it: the owner served least recently first, then its
-- webhook served least recently, so owners are served round-robin and a webhook that has just delivered
-- a batch waits behind the others (jobs/webhooks/serveWebhook.ts). The walk stops at the first due
-- webhook (aggregating each owner's turn at every claim cost 0.25 s at 20,000 webhooks).
ALTER TABLE webhook_cursors
  ADD COLUMN lease_token uuid,
  ADD COLUMN leased_until timestamptz,
  ADD COLUMN served_at timestamptz,
  ADD COLUMN owner_turn_at timestamptz;
CREATE INDEX webhook_cursors_queue ON webhook_cursors (owner_turn_at NULLS FIRST, served_at NULLS FIRST, webhook_id);
