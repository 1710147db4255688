import { describeError } from './errors.js';
import type { Logger } from './logger.js';
import type { PgPool } from './pg.js';

export type PgListener = {
  /** Resolves once LISTEN first took effect (notifications from then on reach `onNotify`). */
  ready: Promise<void>;
  stop(): Promise<void>;
};

/** Reconnect delay after the listening connection is lost. */
const RECONNECT_MS = 2000;

/**
 * LISTEN `channel` on a dedicated connection from `pg` and call `onNotify` for each notification,
 * and once right after LISTEN takes effect (what committed before it is not lost). A lost
 * connection is logged (as `name`) and re-opened after RECONNECT_MS, until `stop`, which
 * UNLISTENs and gives the connection back. Used by the search projector (jobs/outboxListener.ts)
 * and the event streams (api/routes/events/eventFeed.ts).
 */
export function listenChannel({
  pg,
  logger,
  channel,
  name,
  onNotify,
  applicationName,
}: {
  pg: PgPool;
  logger: Logger;
  channel: string;
  name: string;
  onNotify(): void;
  /** Names the listening connection (pg_stat_activity.application_name) while it listens. */
  applicationName?: string;
}): PgListener {
  let stopped = false;
  let release: (() => Promise<void>) | null = null;
  let listening!: () => void;
  const ready = new Promise<void>((resolve) => (listening = resolve));
  const connect = async () => {
    if (stopped) return;
    try {
      const client = await pg.connect();
      const onError = (error: Error) => {
        logger.warn({ msg: `${name}: connection lost, reconnecting`, err: describeError(error) });
        client.removeListener('notification', onNotify);
        client.release(error);
        release = null;
        setTimeout(() => void connect(), RECONNECT_MS).unref();
      };
      client.on('notification', onNotify);
      client.once('error', onError);
      if (applicationName) await client.query(`SELECT set_config('application_name', $1, false)`, [applicationName]);
      await client.query(`LISTEN ${channel}`);
      release = async () => {
        client.removeListener('notification', onNotify);
        await client.query(`UNLISTEN ${channel}`).catch(() => undefined);
        if (applicationName) await client.query('RESET application_name').catch(() => undefined);
        client.removeListener('error', onError);
        client.release();
      };
      if (stopped) await release();
      else {
        listening();
        onNotify();
      }
    } catch (error) {
      logger.warn({ msg: `${name}: cannot listen, retrying`, err: describeError(error) });
      setTimeout(() => void connect(), RECONNECT_MS).unref();
    }
  };
  void connect();
  return {
    ready,
    async stop() {
      stopped = true;
      const r = release;
      release = null;
      await r?.();
    },
  };
}
