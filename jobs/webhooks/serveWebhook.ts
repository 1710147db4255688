import { type EventFilter, pageEvents } from '../../domain/eventLog/readEvents.js';
import { type EventResponse, serializeEvent } from '../../domain/eventLog/serializeEvent.js';
import { walletVisibility } from '../../domain/visibility/campaignVisibility.js';
import type { PgPool, Queryable } from '../../internal/pg.js';
import { withTransaction } from '../../internal/pg.js';
import type { WebhooksConfig } from '../../internal/webhooksConfig.js';
import { postWebhook } from './postWebhook.js';
import { webhookRetryDelay } from './retryDelay.js';
import { webhookPayload } from './webhookPayload.js';

/** Events read per claim at most; a webhook further behind goes back in the queue and is claimed again. */
export const DELIVERY_BATCH = 100;

/**
 * A claim delivers for at most this long (at least one attempt), then the webhook goes to the back of
 * the queue (issue #43): a backlog is served in turns with the other webhooks, not ahead of them.
 */
export const SLICE_MS = 1_000;

/** A lease outlives one attempt's timeout (WEBHOOKS_TIMEOUT_MS) by this much: the time to record it. */
export const LEASE_MARGIN_MS = 10_000;

/** How long a claim holds its webhook before another deliverer may take it over (renewed at each delivery). */
export const leaseMsOf = (config: Pick<WebhooksConfig, 'timeoutMs'>) => config.timeoutMs + LEASE_MARGIN_MS;

/** A webhook claimed under a lease: its settings, where its delivery stands, and the lease's token. */
export type ClaimedWebhook = {
  id: string;
  owner_address: string;
  url: string;
  secret: string;
  types: string[] | null;
  chain_id: number | null;
  campaign_db_id: string | null;
  opportunity_id: string | null;
  address: string | null;
  creator: string | null;
  last_event_id: string;
  failures: number;
  lease_token: string;
};

/** What one claim did, and whether the webhook is level with the log now. */
export type ServeResult = { delivered: number; failed: number; caughtUp: boolean };

export type ClaimWebhookParams = {
  leaseMs: number;
  /** Owners not to claim for (those at their share of this process's workers). */
  skipOwners: readonly string[];
  /** Webhooks not to claim (those that failed in this run: their retry is a later run's). */
  skipWebhooks?: readonly string[];
};

/**
 * Claims, in one short statement, the next due webhook (enabled, retry time reached, events after its
 * cursor, no live lease; not in `skipWebhooks`) of an owner not in `skipOwners`: the owner served least
 * recently first, then its webhook served least recently (round-robin over owners, then over an owner's
 * webhooks), and leases it for `leaseMs` (a new token, `served_at` now); then the owner's turn is now
 * (passTurn). Rows another claimer locks at that instant are skipped, so several processes share the
 * webhooks and one webhook is delivered by one claim at a time. No transaction stays open after it.
 * Tables: webhook_cursors, webhooks, events.
 * @returns the claimed webhook, or null when none is due.
 */
export async function claimWebhook(
  pg: Queryable,
  { leaseMs, skipOwners, skipWebhooks = [] }: ClaimWebhookParams,
): Promise<ClaimedWebhook | null> {
  const { rows } = await pg.query<ClaimedWebhook>(
    `WITH claimed AS (
       UPDATE webhook_cursors c
       SET lease_token = gen_random_uuid(), leased_until = now() + make_interval(secs => $2::float8 / 1000), served_at = now()
       WHERE c.webhook_id = (
         -- The queue's order (index webhook_cursors_queue), walked to the first due webhook.
         SELECT d.webhook_id FROM webhook_cursors d JOIN webhooks w ON w.id = d.webhook_id
         WHERE w.enabled AND d.next_attempt_at <= now() AND (d.leased_until IS NULL OR d.leased_until <= now())
           AND d.last_event_id < (SELECT coalesce(max(id), 0) FROM events)
           AND NOT (w.owner_address = ANY($1::text[])) AND NOT (d.webhook_id = ANY($3::uuid[]))
         ORDER BY d.owner_turn_at NULLS FIRST, d.served_at NULLS FIRST, d.webhook_id
         LIMIT 1
         FOR UPDATE OF d SKIP LOCKED)
       RETURNING c.webhook_id, c.last_event_id, c.failures, c.lease_token)
     SELECT w.id, w.owner_address, w.url, w.secret, w.types, w.chain_id, w.campaign_db_id, w.opportunity_id,
       w.address, w.creator, c.last_event_id::text AS last_event_id, c.failures, c.lease_token::text AS lease_token
     FROM claimed c JOIN webhooks w ON w.id = c.webhook_id`,
    [skipOwners, leaseMs, skipWebhooks],
  );
  const w = rows[0] ?? null;
  if (w) await passTurn(pg, w.owner_address);
  return w;
}

/**
 * The owner's turn is now: its webhooks go behind every other owner's in the queue. A separate short
 * statement after the claim's (never two cursor locks waited for in one statement); a cursor locked
 * at that instant keeps its older turn, which only puts it ahead once.
 */
async function passTurn(pg: Queryable, owner: string): Promise<void> {
  await pg.query(
    `UPDATE webhook_cursors SET owner_turn_at = now() WHERE webhook_id IN (SELECT c.webhook_id
       FROM webhook_cursors c JOIN webhooks w ON w.id = c.webhook_id WHERE w.owner_address = $1
       FOR UPDATE OF c SKIP LOCKED)`,
    [owner],
  );
}

/**
 * Delivers what a claimed webhook has not received yet, in id order: up to DELIVERY_BATCH events,
 * for at most SLICE_MS (at least one attempt), stopping between two attempts on `signal`. No
 * transaction is open during a request: each answer is recorded in its own short transaction, only
 * while the lease is still this claim's (a 2xx moves the cursor to the event and renews the lease), so
 * a worker that died mid-batch leaves the rest, from the cursor, to whoever takes the expired lease
 * over (at least once; receivers deduplicate on `webhook-id`), and a claim whose lease was taken over
 * stops. The first failure stops the claim (order is kept): the attempt is recorded with the next
 * attempt's time, and the webhook is disabled with the reason after `disableAfterFailures` in a row.
 * The webhook is released at the end (back of the queue), its cursor at the log's head when level with it.
 * Tables: webhook_cursors, webhooks, webhook_deliveries, events (campaign_privacy and the access tables).
 */
export async function serveWebhook(
  pg: PgPool,
  config: WebhooksConfig,
  w: ClaimedWebhook,
  signal: AbortSignal,
): Promise<ServeResult> {
  const started = Date.now();
  const leaseMs = leaseMsOf(config);
  try {
    // Ids commit in increasing order (domain/tables/events.ts): nothing at or below `head` can appear later.
    const { rows: heads } = await pg.query<{ head: string }>('SELECT coalesce(max(id), 0)::text AS head FROM events');
    const head = heads[0]!.head;
    const { events, next } = await pendingEvents(pg, w, head);
    let delivered = 0;
    for (const event of events) {
      if (delivered > 0 && (signal.aborted || Date.now() - started >= SLICE_MS)) {
        await release(pg, w, null);
        return { delivered, failed: 0, caughtUp: false };
      }
      const { body, headers } = webhookPayload(event, w.secret, Math.floor(Date.now() / 1000));
      const r = await postWebhook({ url: w.url, body, headers, timeoutMs: config.timeoutMs, allow: config.allow });
      if (!r.delivered) {
        await recordFailure(pg, config, w, event.id, r);
        await passTurn(pg, w.owner_address);
        return { delivered, failed: 1, caughtUp: true };
      }
      if (!(await recordDelivery(pg, w, event.id, r, leaseMs))) return { delivered, failed: 0, caughtUp: false };
      delivered += 1;
    }
    // Everything up to `next` (level: `head`) this webhook may receive was delivered: skip the rest of
    // the log up to it, the entries examined included (a read that stopped short resumes past them).
    await release(pg, w, next ?? head);
    return { delivered, failed: 0, caughtUp: next === null };
  } catch (error) {
    // Best effort: a claim that broke gives its webhook back now rather than at its lease's end.
    await release(pg, w, null).catch(() => undefined);
    throw error;
  }
}

/**
 * The event log's read model, in one place (domain/eventLog, below api/ and jobs/): the webhook's next events after its cursor, up to `head`, as
 * GET /v4/events serves them (pageEvents: a bounded walk of one index, whatever the filters), through its filters and its owner's visibility
 * (the one rule). `next`: where the read stopped, as a page's (null when level with `head`).
 */
async function pendingEvents(
  db: Queryable,
  w: ClaimedWebhook,
  head: string,
): Promise<{ events: EventResponse[]; next: string | null }> {
  const filter: EventFilter = {
    ...(w.types ? { types: w.types } : {}),
    ...(w.chain_id !== null ? { chainId: w.chain_id } : {}),
    ...(w.campaign_db_id ? { campaignDbId: w.campaign_db_id } : {}),
    ...(w.opportunity_id ? { opportunityId: w.opportunity_id } : {}),
    ...(w.address ? { address: w.address } : {}),
    ...(w.creator ? { creator: w.creator } : {}),
  };
  const visible = await walletVisibility(db, w.owner_address);
  const page = await pageEvents(db, { after: w.last_event_id, limit: DELIVERY_BATCH, filter, visible, upTo: head });
  return { events: page.rows.map(serializeEvent), next: page.next };
}

type Attempt = { statusCode: number | null; error: string | null; durationMs: number };

/**
 * Records a 2xx in one short transaction, if the lease is still this claim's: the cursor moves to the
 * event, the failures are forgotten and the lease renewed for the next attempt.
 * @returns false when another deliverer took the webhook over (this claim must stop).
 */
async function recordDelivery(
  pg: PgPool,
  w: ClaimedWebhook,
  eventId: string,
  r: Attempt,
  leaseMs: number,
): Promise<boolean> {
  return withTransaction(pg, async (tx) => {
    const { rowCount } = await tx.query(
      `UPDATE webhook_cursors SET last_event_id = $3, failures = 0, leased_until = now() + make_interval(secs => $4::float8 / 1000)
       WHERE webhook_id = $1 AND lease_token = $2`,
      [w.id, w.lease_token, eventId, leaseMs],
    );
    if (!rowCount) return false;
    await tx.query(
      `INSERT INTO webhook_deliveries (webhook_id, event_id, attempt, delivered, status_code, duration_ms)
       VALUES ($1, $2, $3, true, $4, $5)`,
      [w.id, eventId, w.failures + 1, r.statusCode, r.durationMs],
    );
    w.failures = 0;
    return true;
  });
}

/**
 * Records a failed attempt and releases the webhook, if the lease is still this claim's: the next
 * attempt's time, or the webhook disabled with the reason after too many in a row.
 */
async function recordFailure(
  pg: PgPool,
  config: WebhooksConfig,
  w: ClaimedWebhook,
  eventId: string,
  r: Attempt,
): Promise<void> {
  const failures = w.failures + 1;
  const disable = failures >= config.disableAfterFailures;
  const nextAt = disable ? null : new Date(Date.now() + webhookRetryDelay(failures, config));
  await withTransaction(pg, async (tx) => {
    const { rowCount } = await tx.query(
      `UPDATE webhook_cursors SET failures = $3, next_attempt_at = coalesce($4, now()),
         lease_token = NULL, leased_until = NULL, served_at = now()
       WHERE webhook_id = $1 AND lease_token = $2`,
      [w.id, w.lease_token, failures, nextAt],
    );
    if (!rowCount) return;
    await tx.query(
      `INSERT INTO webhook_deliveries (webhook_id, event_id, attempt, delivered, status_code, error, duration_ms, next_attempt_at)
       VALUES ($1, $2, $3, false, $4, $5, $6, $7)`,
      [w.id, eventId, failures, r.statusCode, r.error?.slice(0, 1000) ?? null, r.durationMs, nextAt],
    );
    if (disable)
      await tx.query(
        `UPDATE webhooks SET enabled = false, disabled_at = now(), updated_at = now(), disabled_reason = $2 WHERE id = $1`,
        [
          w.id,
          `${failures} consecutive failed deliveries (event ${eventId}); last: ${r.error ?? `HTTP ${r.statusCode}`}`.slice(
            0,
            1000,
          ),
        ],
      );
  });
}

/** Ends the claim (if the lease is still its own): the webhook goes to the back of the queue, its cursor at `head` when given. */
async function release(pg: Queryable, w: ClaimedWebhook, head: string | null): Promise<void> {
  await pg.query(
    `UPDATE webhook_cursors SET lease_token = NULL, leased_until = NULL, served_at = now(),
       last_event_id = greatest(last_event_id, coalesce($3::bigint, 0))
     WHERE webhook_id = $1 AND lease_token = $2`,
    [w.id, w.lease_token, head],
  );
  await passTurn(pg, w.owner_address);
}

/**
 * Deletes the cursors and late delivery records of deleted webhooks (the API leaves them: see the
 * migration 2026_12_01_10), skipping a cursor under a live lease (a deliverer may still record on it).
 * Tables: webhook_cursors, webhook_deliveries.
 * @returns the cursors deleted.
 */
export async function deleteOrphans(pg: PgPool): Promise<number> {
  const { rows } = await pg.query<{ id: string }>(
    `DELETE FROM webhook_cursors WHERE webhook_id IN (SELECT c.webhook_id FROM webhook_cursors c
       WHERE NOT EXISTS (SELECT 1 FROM webhooks w WHERE w.id = c.webhook_id)
         AND (c.leased_until IS NULL OR c.leased_until <= now())
       FOR UPDATE SKIP LOCKED)
     RETURNING webhook_id AS id`,
  );
  // What a deliverer recorded after the API deleted the webhook (under its lease, before releasing it).
  if (rows.length)
    await pg.query('DELETE FROM webhook_deliveries WHERE webhook_id = ANY($1::uuid[])', [rows.map((r) => r.id)]);
  return rows.length;
}
