import { type PgPool, type Queryable, withTransaction } from '../../../internal/pg.js';
import { AppError } from '../../errors.js';
import type { WebhookFilter } from './schema.js';
import { PROBLEMS } from '../../problems/registry.js';

/** A webhook with where its delivery stands (webhooks ⋈ webhook_cursors), as the routes read it. */
export type WebhookRow = {
  id: string;
  url: string;
  types: string[] | null;
  chainId: number | null;
  campaignDbId: string | null;
  opportunityId: string | null;
  address: string | null;
  creator: string | null;
  enabled: boolean;
  disabledReason: string | null;
  disabledAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  lastEventId: string;
  failures: number;
  nextAttemptAt: Date;
};

/** The stored form of a webhook's settings (filters already resolved). */
export type WebhookFields = {
  url?: string;
  secret?: string;
  types?: string[];
  chainId?: number;
  campaignDbId?: string;
  opportunityId?: string;
  address?: string;
  creator?: string;
  enabled?: boolean;
  /** Filters to remove (updateWebhook only). */
  clear?: WebhookFilter[];
};

const SELECT = `SELECT w.id, w.url, w.types, w.chain_id AS "chainId", w.campaign_db_id AS "campaignDbId",
  w.opportunity_id AS "opportunityId", w.address, w.creator, w.enabled, w.disabled_reason AS "disabledReason",
  w.disabled_at AS "disabledAt", w.created_at AS "createdAt", w.updated_at AS "updatedAt",
  c.last_event_id::text AS "lastEventId", c.failures, c.next_attempt_at AS "nextAttemptAt"
  FROM webhooks w JOIN webhook_cursors c ON c.webhook_id = w.id`;

/**
 * Creates a webhook of `owner` and its cursor at the newest event (it receives what is appended
 * from now on). 409 past `max` webhooks of the owner. Tables: webhooks, webhook_cursors, events.
 */
export async function createWebhook(
  pool: PgPool,
  owner: string,
  f: WebhookFields & { url: string; secret: string },
  max: number,
): Promise<WebhookRow> {
  return withTransaction(pool, async (client) => {
    // Serializes concurrent creations by one owner so the cap holds.
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`webhooks:${owner}`]);
    const { rows: counted } = await client.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM webhooks WHERE owner_address = $1',
      [owner],
    );
    if (counted[0]!.n >= max)
      throw new AppError(PROBLEMS.CONFLICT, `At most ${max} webhooks per owner: delete one first`, {
        extensions: { maxWebhooks: max },
      });
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO webhooks (owner_address, url, secret, types, chain_id, campaign_db_id, opportunity_id, address, enabled, creator)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
      [
        owner,
        f.url,
        f.secret,
        f.types ?? null,
        f.chainId ?? null,
        f.campaignDbId ?? null,
        f.opportunityId ?? null,
        f.address?.toLowerCase() ?? null,
        f.enabled ?? true,
        f.creator?.toLowerCase() ?? null,
      ],
    );
    const id = rows[0]!.id;
    await client.query(
      'INSERT INTO webhook_cursors (webhook_id, last_event_id) SELECT $1, coalesce(max(id), 0) FROM events',
      [id],
    );
    return (await getWebhook(client, owner, id))!;
  });
}

/** The owner's webhooks, oldest first. Tables: webhooks, webhook_cursors. */
export async function listWebhooks(db: Queryable, owner: string): Promise<WebhookRow[]> {
  const { rows } = await db.query<WebhookRow>(`${SELECT} WHERE w.owner_address = $1 ORDER BY w.created_at, w.id`, [
    owner,
  ]);
  return rows;
}

/** One webhook of the owner; null when the owner has none with this id. Tables: webhooks, webhook_cursors. */
export async function getWebhook(db: Queryable, owner: string, id: string): Promise<WebhookRow | null> {
  const { rows } = await db.query<WebhookRow>(`${SELECT} WHERE w.owner_address = $1 AND w.id = $2`, [owner, id]);
  return rows[0] ?? null;
}

/**
 * Changes the given fields of one of the owner's webhooks, and removes the filters named in `clear`;
 * null when it has none with this id.
 * Disabling records why; enabling a disabled one clears the reason and makes its cursor due now with
 * its failures forgotten, so delivery resumes after the last event delivered; a new URL is due now.
 * Tables: webhooks, webhook_cursors.
 */
export async function updateWebhook(
  pool: PgPool,
  owner: string,
  id: string,
  f: WebhookFields,
): Promise<WebhookRow | null> {
  return withTransaction(pool, async (client) => {
    const { rows } = await client.query<{ enabled: boolean }>(
      'SELECT enabled FROM webhooks WHERE owner_address = $1 AND id = $2 FOR UPDATE',
      [owner, id],
    );
    if (!rows.length) return null;
    const wasEnabled = rows[0]!.enabled;
    await client.query(
      `UPDATE webhooks SET url = coalesce($2, url), secret = coalesce($3, secret),
         types = CASE WHEN 'type' = ANY($11) THEN NULL ELSE coalesce($4, types) END,
         chain_id = CASE WHEN 'chainId' = ANY($11) THEN NULL ELSE coalesce($5, chain_id) END,
         campaign_db_id = CASE WHEN 'campaignId' = ANY($11) THEN NULL ELSE coalesce($6, campaign_db_id) END,
         opportunity_id = CASE WHEN 'opportunityId' = ANY($11) THEN NULL ELSE coalesce($7, opportunity_id) END,
         address = CASE WHEN 'address' = ANY($11) THEN NULL ELSE coalesce($8, address) END,
         enabled = coalesce($9, enabled),
         creator = CASE WHEN 'creator' = ANY($11) THEN NULL ELSE coalesce($10, creator) END,
         disabled_reason = CASE WHEN $9 IS TRUE THEN NULL WHEN $9 IS FALSE AND enabled THEN 'disabled by its owner' ELSE disabled_reason END,
         disabled_at = CASE WHEN $9 IS TRUE THEN NULL WHEN $9 IS FALSE AND enabled THEN now() ELSE disabled_at END,
         updated_at = now()
       WHERE id = $1`,
      [
        id,
        f.url ?? null,
        f.secret ?? null,
        f.types ?? null,
        f.chainId ?? null,
        f.campaignDbId ?? null,
        f.opportunityId ?? null,
        f.address?.toLowerCase() ?? null,
        f.enabled ?? null,
        f.creator?.toLowerCase() ?? null,
        f.clear ?? [],
      ],
    );
    const reenabled = f.enabled === true && !wasEnabled;
    if (reenabled || f.url !== undefined)
      // Due now (a new URL is tried at once, not at the old one's next retry). A cursor a deliverer
      // holds (a live lease, or its claim's row lock of an instant) is left alone rather than waited
      // for: that delivery is under way anyway, and its claim records its own outcome.
      await client.query(
        `UPDATE webhook_cursors SET next_attempt_at = now(), failures = CASE WHEN $2 THEN 0 ELSE failures END
         WHERE webhook_id = (SELECT webhook_id FROM webhook_cursors WHERE webhook_id = $1
           AND (leased_until IS NULL OR leased_until <= now()) FOR UPDATE SKIP LOCKED)`,
        [id, reenabled],
      );
    return getWebhook(client, owner, id);
  });
}

/**
 * Deletes one of the owner's webhooks and its delivery records; false when it has none with this id.
 * Its cursor is left to the deliverer (jobs/webhooks/serveWebhook.ts), which may hold it under a lease right now.
 * Tables: webhooks, webhook_deliveries.
 */
export async function deleteWebhook(pool: PgPool, owner: string, id: string): Promise<boolean> {
  return withTransaction(pool, async (client) => {
    const { rowCount } = await client.query('DELETE FROM webhooks WHERE owner_address = $1 AND id = $2', [owner, id]);
    if (!rowCount) return false;
    await client.query('DELETE FROM webhook_deliveries WHERE webhook_id = $1', [id]);
    return true;
  });
}

/** A webhook_deliveries row in TS names. */
export type DeliveryRow = {
  id: string;
  eventId: string;
  attempt: number;
  delivered: boolean;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  nextAttemptAt: Date | null;
  createdAt: Date;
};

/** Attempts of one webhook, newest first, with ids below `before`. Table webhook_deliveries. */
export async function listDeliveries(
  db: Queryable,
  webhookId: string,
  { before, limit }: { before?: number; limit: number },
): Promise<DeliveryRow[]> {
  const { rows } = await db.query<DeliveryRow>(
    `SELECT id::text, event_id::text AS "eventId", attempt, delivered, status_code AS "statusCode", error,
       duration_ms AS "durationMs", next_attempt_at AS "nextAttemptAt", created_at AS "createdAt"
     FROM webhook_deliveries WHERE webhook_id = $1 AND ($2::bigint IS NULL OR id < $2) ORDER BY id DESC LIMIT $3`,
    [webhookId, before ?? null, limit],
  );
  return rows;
}
