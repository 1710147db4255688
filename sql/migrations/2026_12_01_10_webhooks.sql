-- Up Migration
-- Webhooks (issue #32): an API key owner's URL, the filters of GET /v4/events and a signing secret.
-- The jobs processes deliver the event log to them (jobs/deliverWebhooks.ts), never the API.
CREATE TABLE webhooks (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  owner_address text NOT NULL,
  url text NOT NULL,
  -- `whsec_` + base64 key (Standard Webhooks); needed in clear to sign, never answered after creation.
  secret text NOT NULL,
  types text[],
  chain_id int,
  -- The campaign filter, resolved once to its internal id through the owner's visibility.
  campaign_db_id text,
  opportunity_id text,
  address text,
  -- Events about the campaigns this address created (lower-case).
  creator text,
  enabled boolean NOT NULL DEFAULT true,
  disabled_reason text,
  disabled_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhooks_owner ON webhooks (owner_address, created_at);

-- Where each webhook's delivery stands, apart from the webhook: deliverers lock a row FOR UPDATE
-- SKIP LOCKED for the time of its deliveries (seconds when a receiver is slow), so several processes
-- share the webhooks and never deliver one at once. No foreign key to webhooks, on purpose: a key
-- check or a cascade would make the owner's PATCH or DELETE wait on the delivery in flight (and hit
-- the API's lock timeout); the deliverer deletes the cursors of deleted webhooks. `failures` counts
-- the consecutive failed attempts at the event after `last_event_id` (deliveries are in order).
CREATE TABLE webhook_cursors (
  webhook_id uuid PRIMARY KEY,
  last_event_id bigint NOT NULL,
  failures int NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_cursors_due ON webhook_cursors (next_attempt_at);

-- Every attempt, as the owner reads it (GET /v4/webhooks/{id}/deliveries); the retention job keeps
-- WEBHOOK_DELIVERIES_RETENTION_DAYS of them. No foreign key either (same reason as the cursors).
CREATE TABLE webhook_deliveries (
  id bigserial PRIMARY KEY,
  webhook_id uuid NOT NULL,
  event_id bigint NOT NULL,
  attempt int NOT NULL,
  delivered boolean NOT NULL,
  status_code int,
  error text,
  duration_ms int NOT NULL,
  next_attempt_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries (webhook_id, id);
CREATE INDEX webhook_deliveries_created_at ON webhook_deliveries (created_at);
