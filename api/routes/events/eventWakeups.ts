import { describeError } from '../../../internal/errors.js';
import type { Logger } from '../../../internal/logger.js';
import type { PgClient, PgPool } from '../../../internal/pg.js';

export type EventWakeups = {
  /** Calls `onWake` after each committed append (LISTEN events) until the returned function is called. */
  subscribe(onWake: () => void): () => void;
  /** Subscribers now (open streams of this process). */
  size(): number;
};

/** Reconnect delay after the listening connection is lost. */
const RECONNECT_MS = 2000;

/**
 * One LISTEN connection per API process for all its open streams: taken from the pool when the
 * first stream opens, given back when the last closes. The trigger of migration 2026_11_30_01
 * notifies once per appending statement, at commit. A lost connection is logged and re-opened;
 * each stream also polls, so a notification missed meanwhile only delays its events.
 */
export function createEventWakeups({ pg, logger }: { pg: PgPool; logger: Logger }): EventWakeups {
  const subscribers = new Set<() => void>();
  let client: PgClient | null = null;
  let connecting = false;
  const wake = () => {
    for (const s of subscribers) s();
  };
  const release = (c: PgClient, error?: Error) => {
    c.removeListener('notification', wake);
    if (error) c.release(error);
    else
      void c.query('UNLISTEN events').then(
        () => c.release(),
        (e: Error) => c.release(e),
      );
  };
  const connect = async () => {
    if (client || connecting || !subscribers.size) return;
    connecting = true;
    try {
      const c = await pg.connect();
      c.on('notification', wake);
      c.once('error', (error: Error) => {
        logger.warn({ msg: 'event wakeups: connection lost, reconnecting', err: describeError(error) });
        if (client === c) client = null;
        release(c, error);
        setTimeout(() => void connect(), RECONNECT_MS).unref();
      });
      await c.query('LISTEN events');
      client = c;
      // Appends committed before LISTEN took effect: one wake-up now.
      wake();
      if (!subscribers.size) {
        client = null;
        release(c);
      }
    } catch (error) {
      logger.warn({ msg: 'event wakeups: cannot listen, retrying', err: describeError(error) });
      setTimeout(() => void connect(), RECONNECT_MS).unref();
    } finally {
      connecting = false;
    }
  };
  return {
    subscribe(onWake) {
      subscribers.add(onWake);
      void connect();
      return () => {
        subscribers.delete(onWake);
        if (!subscribers.size && client) {
          const c = client;
          client = null;
          release(c);
        }
      };
    },
    size: () => subscribers.size,
  };
}
