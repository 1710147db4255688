-- Up Migration
-- Fair webhooks (issue #43, F6): a deliverer claims a webhook with a lease instead of holding its
-- cursor row locked in a transaction across the outbound requests (a receiver answering in ~10 s kept
-- a worker and a FOR UPDATE transaction open for up to 100 deliveries). The claim sets `lease_token`
-- and `leased_until` in one short statement; each delivery's result is recorded in its own short
-- transaction only while the token still matches (which renews the lease); the release clears both.
-- A worker that dies leaves its lease to expire (`leased_until`: one attempt's timeout and a margin),
-- and another deliverer takes the webhook over from its cursor (at least once, as before).
-- `served_at`: when the webhook last had its turn (claimed or released; null: never). Claims go to the
-- owner served least recently first, then to its webhook served least recently, so owners are served
-- round-robin and a webhook that has just delivered a batch waits behind the others (jobs/webhooks/serveWebhook.ts).
ALTER TABLE webhook_cursors
  ADD COLUMN lease_token uuid,
  ADD COLUMN leased_until timestamptz,
  ADD COLUMN served_at timestamptz;
