import { createProgress } from '../internal/progress.js';
import type { Job } from './control/types.js';
import { jobInfo } from './control/catalog.js';
import { deleteOrphans, serveWebhook } from './webhooks/serveWebhook.js';

/**
 * Delivers the event log to the webhooks (README "Webhooks"; issue #32): WEBHOOKS_CONCURRENCY
 * workers each claim a due webhook (jobs/webhooks/serveWebhook.ts: its cursor row locked SKIP
 * LOCKED, so the schedulers of several processes share the webhooks) and deliver its pending
 * events, until no webhook is due; a webhook is served at most once a run once it is level with
 * the log or failing (a backlog is claimed again batch after batch). A committed append wakes it in
 * follow mode (LISTEN events); its cron is the sweep that retries failed deliveries when they fall due.
 * Tables: webhooks, webhook_cursors, webhook_deliveries, events.
 */
export const deliverWebhooks: Job = {
  ...jobInfo('webhooks'),
  async run(deps) {
    const config = deps.config.webhooks;
    const orphans = await deleteOrphans(deps.pg);
    const served = new Set<string>();
    const { rows } = await deps.pg.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM webhook_cursors c JOIN webhooks w ON w.id = c.webhook_id
       WHERE w.enabled AND c.next_attempt_at <= now() AND c.last_event_id < (SELECT coalesce(max(id), 0) FROM events)`,
    );
    const progress = createProgress({ logger: deps.logger, total: rows[0]!.n, unit: 'webhooks', minTotal: 20 });
    let delivered = 0;
    let failed = 0;
    const worker = async () => {
      while (!deps.signal.aborted) {
        const r = await serveWebhook(deps.pg, config, [...served]);
        if (!r.webhookId) return;
        if (r.caughtUp) {
          served.add(r.webhookId);
          progress.advance(1, { delivered, failed });
        }
        delivered += r.delivered;
        failed += r.failed;
      }
    };
    await Promise.all(Array.from({ length: config.concurrency }, worker));
    return { ranges: [], counts: { delivered, failed, webhooks: served.size, orphans } };
  },
};
