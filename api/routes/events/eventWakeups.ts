import type { Logger } from '../../../internal/logger.js';
import type { PgPool } from '../../../internal/pg.js';
import { listenChannel, type PgListener } from '../../../internal/pgListen.js';

export type EventWakeups = {
  /** Calls `onWake` after each committed append (LISTEN events) until the returned function is called. */
  subscribe(onWake: () => void): () => void;
  /** Subscribers now (open streams of this process). */
  size(): number;
};

/**
 * One LISTEN connection per API process for all its open streams (internal/pgListen.ts): opened
 * when the first stream opens, given back when the last closes. The trigger of migration
 * 2026_11_30_01 notifies once per appending statement, at commit. A lost connection is logged and
 * re-opened; each stream also polls, so a notification missed meanwhile only delays its events.
 */
export function createEventWakeups({ pg, logger }: { pg: PgPool; logger: Logger }): EventWakeups {
  const subscribers = new Set<() => void>();
  let listener: PgListener | null = null;
  const wake = () => {
    for (const s of subscribers) s();
  };
  return {
    subscribe(onWake) {
      subscribers.add(onWake);
      listener ??= listenChannel({ pg, logger, channel: 'events', name: 'event wakeups', onNotify: wake });
      return () => {
        subscribers.delete(onWake);
        if (!subscribers.size && listener) {
          void listener.stop();
          listener = null;
        }
      };
    },
    size: () => subscribers.size,
  };
}
