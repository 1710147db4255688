import type { Logger } from '../../internal/logger.js';
import { withTransaction as inWriteTransaction, type PgPool } from '../../internal/pg.js';

/** How often buffered usage is written, by default. */
export const USAGE_FLUSH_INTERVAL_MS = 5000;

export type UsageBuffer = {
  /** Counts one call of `endpoint` (e.g. `GET /v4/opportunities`) by key `keyId`, in memory only. */
  record(keyId: string, endpoint: string, at?: Date): void;
  /** Writes everything buffered so far in one upsert; on failure the counts stay buffered. */
  flush(): Promise<void>;
  /** Stops the timer after a last flush. */
  stop(): Promise<void>;
};

/** Every live buffer of this process, so `flush()` (graceful shutdown) reaches them all. */
const buffers = new Set<UsageBuffer>();

export type CreateUsageBufferParams = { pool: PgPool; logger: Logger; intervalMs?: number };

/**
 * API key usage counted per key × endpoint × UTC day without touching the database on the request
 * path: counts accumulate in memory and are upserted every `intervalMs` and at shutdown.
 * Flushes are serialized; a failed flush merges its counts back, so nothing is lost.
 * Tables: api_key_usage.
 */
export function createUsageBuffer({
  pool,
  logger,
  intervalMs = USAGE_FLUSH_INTERVAL_MS,
}: CreateUsageBufferParams): UsageBuffer {
  let pending = new Map<string, number>();
  let chain: Promise<void> = Promise.resolve();
  const write = async (): Promise<void> => {
    if (pending.size === 0) return;
    if (pool.ending || pool.ended) {
      // The app is gone (its pool was closed before a flush): nothing can write these any more.
      logger.error({ msg: 'api key usage dropped: pool closed before flush', entries: pending.size });
      pending = new Map();
      clearInterval(timer);
      buffers.delete(buffer);
      return;
    }
    const batch = pending;
    pending = new Map();
    const ids: string[] = [],
      days: string[] = [],
      endpoints: string[] = [],
      counts: string[] = [];
    for (const [key, count] of batch) {
      const [id, day, endpoint] = JSON.parse(key) as [string, string, string];
      ids.push(id), days.push(day), endpoints.push(endpoint), counts.push(String(count));
    }
    try {
      await inWriteTransaction(pool, (client) =>
        client.query(
          `INSERT INTO api_key_usage (key_id, day, endpoint, count)
         SELECT * FROM unnest($1::uuid[], $2::date[], $3::text[], $4::bigint[])
         ON CONFLICT (key_id, day, endpoint) DO UPDATE SET count = api_key_usage.count + EXCLUDED.count`,
          [ids, days, endpoints, counts],
        ),
      );
    } catch (error) {
      for (const [key, count] of batch) pending.set(key, (pending.get(key) ?? 0) + count);
      logger.error({ msg: 'api key usage flush failed', entries: batch.size, err: (error as Error).message });
      throw error;
    }
  };
  const buffer: UsageBuffer = {
    record(keyId, endpoint, at = new Date()) {
      const key = JSON.stringify([keyId, at.toISOString().slice(0, 10), endpoint]);
      pending.set(key, (pending.get(key) ?? 0) + 1);
    },
    flush() {
      chain = chain.catch(() => {}).then(write);
      return chain;
    },
    async stop() {
      clearInterval(timer);
      buffers.delete(buffer);
      await buffer.flush();
    },
  };
  const timer = setInterval(() => void buffer.flush().catch(() => {}), intervalMs);
  timer.unref();
  buffers.add(buffer);
  return buffer;
}

/**
 * Writes the buffered API key usage of every app in this process (api/server.ts calls it on
 * graceful shutdown, before the pools end; tests call it to read usage at once).
 */
export async function flush(): Promise<void> {
  const results = await Promise.allSettled([...buffers].map((b) => b.flush()));
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}
