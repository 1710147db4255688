import type { PgPool } from '../../internal/pg.js';

/** Window of the delivery counts (webhook_deliveries, index on created_at). */
export const WEBHOOK_DELIVERY_WINDOW_SECONDS = 900;

/** Where webhook delivery stands, over every enabled webhook (the jobs processes deliver; this only reads). */
export type WebhookBacklog = {
  enabled: number;
  disabled: number;
  /** Event-log entries still to be examined, summed over enabled webhooks (head − cursor). */
  backlogEvents: number;
  /** Age of the oldest event an enabled webhook has not got past; 0 when none is behind. */
  oldestPendingAgeSeconds: number;
  /** Enabled webhooks whose next event failed at least once (they retry with backoff). */
  retrying: number;
  /** Attempts in the last WEBHOOK_DELIVERY_WINDOW_SECONDS, delivered and failed. */
  delivered: number;
  failed: number;
};

/**
 * Webhook delivery's backlog and recent outcomes, as aggregates (no rows leave PostgreSQL): the
 * cursors of enabled webhooks against the head of the log, the oldest pending event by primary key,
 * and the attempts of the last 15 minutes (webhook_deliveries_created_at range).
 * Tables: webhooks, webhook_cursors, events, webhook_deliveries.
 */
export async function loadWebhookBacklog(pg: PgPool): Promise<WebhookBacklog> {
  const [cursors, deliveries] = await Promise.all([
    pg.query<{ enabled: number; disabled: number; backlog: number; retrying: number; min_cursor: string | null }>(
      `WITH head AS (SELECT coalesce(max(id), 0) AS id FROM events),
         c AS (SELECT c.last_event_id, c.failures FROM webhook_cursors c JOIN webhooks w ON w.id = c.webhook_id WHERE w.enabled)
       SELECT (SELECT count(*) FROM c)::int AS enabled,
         (SELECT count(*) FROM webhooks WHERE NOT enabled)::int AS disabled,
         (SELECT coalesce(sum(greatest(0, head.id - c.last_event_id)), 0) FROM c, head)::float8 AS backlog,
         (SELECT count(*) FROM c WHERE failures > 0)::int AS retrying,
         (SELECT min(c.last_event_id) FROM c, head WHERE c.last_event_id < head.id)::text AS min_cursor`,
    ),
    pg.query<{ delivered: number; failed: number }>(
      `SELECT count(*) FILTER (WHERE delivered)::int AS delivered, count(*) FILTER (WHERE NOT delivered)::int AS failed
       FROM webhook_deliveries WHERE created_at > now() - make_interval(secs => $1)`,
      [WEBHOOK_DELIVERY_WINDOW_SECONDS],
    ),
  ]);
  const c = cursors.rows[0]!;
  const oldest =
    c.min_cursor === null
      ? 0
      : ((
          await pg.query<{ age: number }>(
            'SELECT greatest(0, extract(epoch FROM now() - created_at))::float8 AS age FROM events WHERE id > $1 ORDER BY id LIMIT 1',
            [c.min_cursor],
          )
        ).rows[0]?.age ?? 0);
  return {
    enabled: c.enabled,
    disabled: c.disabled,
    backlogEvents: c.backlog,
    oldestPendingAgeSeconds: oldest,
    retrying: c.retrying,
    delivered: deliveries.rows[0]!.delivered,
    failed: deliveries.rows[0]!.failed,
  };
}
