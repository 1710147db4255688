import type { Logger } from '../internal/logger.js';
import type { PgPool } from '../internal/pg.js';
import { coalesced } from '../internal/coalesced.js';
import { describeError } from '../internal/errors.js';
import { listenChannel } from '../internal/pgListen.js';

export type OutboxListener = {
  /** Resolves once it listens (a write committed after wakes it). */
  ready: Promise<void>;
  stop(): Promise<void>;
};

/**
 * Wakes the projector when a write to the search outbox commits: LISTEN search_outbox
 * (internal/pgListen.ts; the trigger of migration 2026_11_24_03 notifies once per statement) and
 * call `onWrite`, at most one call in flight, with a write seen meanwhile giving one more call
 * after it. A lost connection is logged and re-opened; the publish job's cron stays the safety net.
 */
export function startOutboxListener({
  pg,
  logger,
  onWrite,
  channel = 'search_outbox',
  name = 'outbox listener',
}: {
  pg: PgPool;
  logger: Logger;
  onWrite(): Promise<void>;
  /** Another committed-write channel with the same wake-up rule (`events`: the webhook deliveries). */
  channel?: string;
  name?: string;
}): OutboxListener {
  let stopped = false;
  const projection = coalesced(
    () => onWrite().catch((error: unknown) => logger.error({ msg: `${name}: run failed`, err: describeError(error) })),
    () => !stopped,
  );
  const listener = listenChannel({
    pg,
    logger,
    channel,
    name,
    onNotify: projection.run,
  });
  return {
    ready: listener.ready,
    async stop() {
      stopped = true;
      await listener.stop();
      await projection.idle();
    },
  };
}
