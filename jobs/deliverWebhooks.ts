import { createProgress } from '../internal/progress.js';
import { listenChannel, type PgListener } from '../internal/pgListen.js';
import type { Job } from '../domain/jobs/types.js';
import { jobInfo } from '../domain/jobs/catalog.js';
import { type ClaimedWebhook, claimWebhook, deleteOrphans, leaseMsOf, serveWebhook } from './webhooks/serveWebhook.js';
import { createWakeup } from './webhooks/wakeup.js';

/** A run takes no new claim after this long (its claims in flight end within a slice); the next run goes on. */
export const RUN_MS = 60_000;

/** While a worker delivers, the idle ones look again this often (retries falling due, other processes' releases). */
const IDLE_POLL_MS = 1_000;

/**
 * Pure: how many of a process's `concurrency` workers one owner's webhooks may hold at once: half,
 * at least one, so the webhooks of one owner never hold every worker (with two workers or more).
 */
export const ownerShare = (concurrency: number) => Math.max(1, Math.floor(concurrency / 2));

/**
 * Delivers the event log to the webhooks (README "Webhooks"; issues #32, #43): WEBHOOKS_CONCURRENCY
 * workers each claim a due webhook under a lease (jobs/webhooks/serveWebhook.ts: owners round-robin,
 * then their webhooks; several processes share them) and deliver its pending events for a slice,
 * outside any transaction, then release it to the back of the queue. An owner's webhooks hold at most
 * ownerShare workers of the process, and claims are made one at a time so the share is exact. While a
 * worker waits on a receiver, the others keep serving: a worker that finds nothing due waits for an
 * append (LISTEN events, for the run's time), a release or IDLE_POLL_MS, so a slow receiver delays
 * only its own webhook. A webhook whose attempt failed is not claimed again in the run. The run ends
 * when no worker delivers and nothing is due, or RUN_MS after it began. A committed append starts it in follow mode (LISTEN events in the scheduler); its cron is the
 * sweep that retries failed deliveries when they fall due.
 * Tables: webhooks, webhook_cursors, webhook_deliveries, events.
 */
export const deliverWebhooks: Job = {
  ...jobInfo('webhooks'),
  async run(deps) {
    const config = deps.config.webhooks;
    const orphans = await deleteOrphans(deps.pg);
    const { rows } = await deps.pg.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM webhook_cursors c JOIN webhooks w ON w.id = c.webhook_id
       WHERE w.enabled AND c.next_attempt_at <= now() AND c.last_event_id < (SELECT coalesce(max(id), 0) FROM events)`,
    );
    const progress = createProgress({ logger: deps.logger, total: rows[0]!.n, unit: 'webhooks', minTotal: 20 });
    const share = ownerShare(config.concurrency);
    const leaseMs = leaseMsOf(config);
    const until = Date.now() + RUN_MS;
    const served = new Set<string>();
    /** Webhooks whose attempt failed in this run: retried in a later run, when due (as before #43). */
    const failing = new Set<string>();
    /** Workers of this run delivering to each owner's webhooks now. */
    const holding = new Map<string, number>();
    const wakeup = createWakeup();
    let listener = null as PgListener | null;
    let delivered = 0;
    let failed = 0;
    /** Workers not waiting (claiming or delivering): when the last one finds nothing due, the run ends. */
    let active = config.concurrency;
    let done = false;
    // One claim at a time in this process: each sees the owners the previous ones filled.
    let claims: Promise<unknown> = Promise.resolve();
    const claimNext = () => {
      const claim = claims.then(async () => {
        const full = [...holding].filter(([, n]) => n >= share).map(([owner]) => owner);
        const w = await claimWebhook(deps.pg, { leaseMs, skipOwners: full, skipWebhooks: [...failing] });
        if (w) holding.set(w.owner_address, (holding.get(w.owner_address) ?? 0) + 1);
        return w;
      });
      claims = claim.catch(() => undefined);
      return claim;
    };
    const serve = async (w: ClaimedWebhook) => {
      try {
        const r = await serveWebhook(deps.pg, config, w, deps.signal);
        served.add(w.id);
        if (r.failed) failing.add(w.id);
        if (r.caughtUp) progress.advance(1, { delivered, failed });
        delivered += r.delivered;
        failed += r.failed;
      } finally {
        holding.set(w.owner_address, holding.get(w.owner_address)! - 1);
        wakeup.signal();
      }
    };
    const worker = async () => {
      while (!done && !deps.signal.aborted && Date.now() < until) {
        const seen = wakeup.generation;
        const w = await claimNext();
        if (w) {
          await serve(w);
          continue;
        }
        active -= 1;
        if (active === 0 && wakeup.generation === seen) {
          done = true;
          wakeup.signal();
          return;
        }
        // Another worker is delivering: wait for work rather than end the run behind it.
        listener ??= listenChannel({
          pg: deps.pg,
          logger: deps.logger,
          channel: 'events',
          name: 'webhook run wakeups',
          onNotify: () => wakeup.signal(),
        });
        await wakeup.after(seen, IDLE_POLL_MS, deps.signal);
        active += 1;
      }
    };
    const stopAll = (error: unknown) => {
      done = true;
      wakeup.signal();
      throw error;
    };
    const ended = await Promise.allSettled(Array.from({ length: config.concurrency }, () => worker().catch(stopAll)));
    await listener?.stop();
    const broken = ended.find((r) => r.status === 'rejected');
    if (broken) throw broken.reason;
    return { ranges: [], counts: { delivered, failed, webhooks: served.size, orphans } };
  },
};
