import type { Logger } from '../internal/logger.js';
import type { PgPool } from '../internal/pg.js';
import { describeError } from '../internal/errors.js';

export type OutboxListener = { stop(): Promise<void> };

/** Reconnect delay after the listening connection is lost. */
const RECONNECT_MS = 2000;

/**
 * Wakes the projector when a write to the search outbox commits: LISTEN search_outbox on a
 * dedicated connection (the trigger of migration 2026_11_24_03 notifies once per statement) and
 * call `onWrite`, at most one call in flight, with a write seen meanwhile giving one more call
 * after it. A lost connection is logged and re-opened; the publish job's cron stays the safety net.
 */
export function startOutboxListener({
  pg,
  logger,
  onWrite,
}: {
  pg: PgPool;
  logger: Logger;
  onWrite(): Promise<void>;
}): OutboxListener {
  let stopped = false;
  let release: (() => Promise<void>) | null = null;
  let running: Promise<void> | null = null;
  let again = false;
  const wake = () => {
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        await onWrite().catch((error: unknown) =>
          logger.error({ msg: 'outbox listener: projection failed', err: describeError(error) }),
        );
      } while (again && !stopped);
    })().finally(() => (running = null));
  };
  const connect = async () => {
    if (stopped) return;
    try {
      const client = await pg.connect();
      const onError = (error: Error) => {
        logger.warn({ msg: 'outbox listener: connection lost, reconnecting', err: describeError(error) });
        client.removeListener('notification', wake);
        client.release(error);
        release = null;
        setTimeout(() => void connect(), RECONNECT_MS).unref();
      };
      client.on('notification', wake);
      client.once('error', onError);
      await client.query('LISTEN search_outbox');
      release = async () => {
        client.removeListener('notification', wake);
        await client.query('UNLISTEN search_outbox').catch(() => undefined);
        client.removeListener('error', onError);
        client.release();
      };
      if (stopped) await release();
      // Writes committed before LISTEN took effect are not lost: one projection now.
      else wake();
    } catch (error) {
      logger.warn({ msg: 'outbox listener: cannot listen, retrying', err: describeError(error) });
      setTimeout(() => void connect(), RECONNECT_MS).unref();
    }
  };
  void connect();
  return {
    async stop() {
      stopped = true;
      const r = release;
      release = null;
      await r?.();
      await running;
    },
  };
}
