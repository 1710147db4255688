import { type EventFilter, listEvents } from '../../domain/eventLog/readEvents.js';
import { serializeEvent } from '../../domain/eventLog/serializeEvent.js';
import { walletVisibility } from '../../domain/visibility/campaignVisibility.js';
import type { PgClient, PgPool } from '../../internal/pg.js';
import type { WebhooksConfig } from '../../internal/webhooksConfig.js';
import { postWebhook } from './postWebhook.js';
import { webhookRetryDelay } from './retryDelay.js';
import { webhookPayload } from './webhookPayload.js';

/** Events delivered per claim at most; a webhook further behind is claimed again at once. */
export const DELIVERY_BATCH = 100;

type Claimed = {
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
};

/** What one claim did: the webhook (null: none was due), and whether it is level with the log now. */
export type ServeResult = { webhookId: string | null; delivered: number; failed: number; caughtUp: boolean };

/**
 * Claims one due webhook not in `skip` and delivers what it has not received yet, in id order, up to
 * DELIVERY_BATCH events. The claim is its cursor row locked FOR UPDATE SKIP LOCKED for the whole
 * transaction, so several processes share the webhooks and never deliver one at once; the cursor
 * advances in the same transaction, after each answered 2xx, so a process that dies mid-batch
 * leaves the batch to be delivered again (at least once; receivers deduplicate on `webhook-id`).
 * The first failure stops the batch (order is kept): the attempt is recorded with the next attempt's
 * time, and the webhook is disabled with the reason after `disableAfterFailures` in a row. Events
 * go through the events reads' query and visibility rule, with the owner's visibility.
 * Tables: webhook_cursors, webhooks, webhook_deliveries, events (campaign_privacy and the access tables).
 */
export async function serveWebhook(pg: PgPool, config: WebhooksConfig, skip: readonly string[]): Promise<ServeResult> {
  const client = await pg.connect();
  try {
    await client.query('BEGIN');
    const w = await claim(client, skip);
    if (!w) {
      await client.query('COMMIT');
      return { webhookId: null, delivered: 0, failed: 0, caughtUp: true };
    }
    const result = await deliverBatch(client, config, w);
    await client.query('COMMIT');
    return { webhookId: w.id, ...result };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** The most overdue enabled webhook with events after its cursor, locked; null when none is free. */
async function claim(client: PgClient, skip: readonly string[]): Promise<Claimed | null> {
  const { rows } = await client.query<Claimed>(
    `SELECT w.id, w.owner_address, w.url, w.secret, w.types, w.chain_id, w.campaign_db_id, w.opportunity_id, w.address, w.creator,
       c.last_event_id::text AS last_event_id, c.failures
     FROM webhook_cursors c JOIN webhooks w ON w.id = c.webhook_id
     WHERE w.enabled AND c.next_attempt_at <= now() AND NOT (c.webhook_id = ANY($1::uuid[]))
       AND c.last_event_id < (SELECT coalesce(max(id), 0) FROM events)
     ORDER BY c.next_attempt_at LIMIT 1
     FOR UPDATE OF c SKIP LOCKED`,
    [skip],
  );
  return rows[0] ?? null;
}

async function deliverBatch(
  client: PgClient,
  config: WebhooksConfig,
  w: Claimed,
): Promise<Omit<ServeResult, 'webhookId'>> {
  // Ids commit in increasing order (domain/tables/events.ts): nothing at or below `head` can appear later.
  const { rows: heads } = await client.query<{ head: string }>('SELECT coalesce(max(id), 0)::text AS head FROM events');
  const head = heads[0]!.head;
  const filter: EventFilter = {
    ...(w.types ? { types: w.types } : {}),
    ...(w.chain_id !== null ? { chainId: w.chain_id } : {}),
    ...(w.campaign_db_id ? { campaignDbId: w.campaign_db_id } : {}),
    ...(w.opportunity_id ? { opportunityId: w.opportunity_id } : {}),
    ...(w.address ? { address: w.address } : {}),
    ...(w.creator ? { creator: w.creator } : {}),
  };
  const visible = await walletVisibility(client, w.owner_address);
  const rows = await listEvents(client, { after: w.last_event_id, limit: DELIVERY_BATCH, filter, visible });
  const due = rows.filter((r) => BigInt(r.id) <= BigInt(head));
  let delivered = 0;
  for (const row of due) {
    const event = serializeEvent(row);
    const { body, headers } = webhookPayload(event, w.secret, Math.floor(Date.now() / 1000));
    const attempt = w.failures + 1;
    const r = await postWebhook({ url: w.url, body, headers, timeoutMs: config.timeoutMs, allow: config.allow });
    if (!r.delivered) {
      await recordFailure(client, config, w, event.id, r);
      return { delivered, failed: 1, caughtUp: true };
    }
    await client.query(
      `INSERT INTO webhook_deliveries (webhook_id, event_id, attempt, delivered, status_code, duration_ms)
       VALUES ($1, $2, $3, true, $4, $5)`,
      [w.id, event.id, attempt, r.statusCode, r.durationMs],
    );
    await client.query('UPDATE webhook_cursors SET last_event_id = $2, failures = 0 WHERE webhook_id = $1', [
      w.id,
      event.id,
    ]);
    w.failures = 0;
    delivered += 1;
  }
  // Everything up to `head` this webhook may receive was delivered: skip the rest of the log up to it.
  const caughtUp = rows.length < DELIVERY_BATCH;
  if (caughtUp) await client.query('UPDATE webhook_cursors SET last_event_id = $2 WHERE webhook_id = $1', [w.id, head]);
  return { delivered, failed: 0, caughtUp };
}

/** Records a failed attempt: the next one's time, or the webhook disabled with the reason after too many. */
async function recordFailure(
  client: PgClient,
  config: WebhooksConfig,
  w: Claimed,
  eventId: string,
  r: { statusCode: number | null; error: string | null; durationMs: number },
): Promise<void> {
  const failures = w.failures + 1;
  const disable = failures >= config.disableAfterFailures;
  const nextAt = disable ? null : new Date(Date.now() + webhookRetryDelay(failures, config));
  await client.query(
    `INSERT INTO webhook_deliveries (webhook_id, event_id, attempt, delivered, status_code, error, duration_ms, next_attempt_at)
     VALUES ($1, $2, $3, false, $4, $5, $6, $7)`,
    [w.id, eventId, failures, r.statusCode, r.error?.slice(0, 1000) ?? null, r.durationMs, nextAt],
  );
  await client.query(
    'UPDATE webhook_cursors SET failures = $2, next_attempt_at = coalesce($3, now()) WHERE webhook_id = $1',
    [w.id, failures, nextAt],
  );
  if (disable)
    await client.query(
      `UPDATE webhooks SET enabled = false, disabled_at = now(), updated_at = now(), disabled_reason = $2 WHERE id = $1`,
      [
        w.id,
        `${failures} consecutive failed deliveries (event ${eventId}); last: ${r.error ?? `HTTP ${r.statusCode}`}`.slice(
          0,
          1000,
        ),
      ],
    );
}

/**
 * Deletes the cursors and late delivery records of deleted webhooks (the API leaves them: see the
 * migration 2026_12_01_10), skipping a cursor a deliverer still holds. Tables: webhook_cursors, webhook_deliveries.
 * @returns the cursors deleted.
 */
export async function deleteOrphans(pg: PgPool): Promise<number> {
  const { rows } = await pg.query<{ id: string }>(
    `DELETE FROM webhook_cursors WHERE webhook_id IN (SELECT c.webhook_id FROM webhook_cursors c
       WHERE NOT EXISTS (SELECT 1 FROM webhooks w WHERE w.id = c.webhook_id) FOR UPDATE SKIP LOCKED)
     RETURNING webhook_id AS id`,
  );
  // What a deliverer recorded after the API deleted the webhook (it committed before giving up the cursor).
  if (rows.length)
    await pg.query('DELETE FROM webhook_deliveries WHERE webhook_id = ANY($1::uuid[])', [rows.map((r) => r.id)]);
  return rows.length;
}
