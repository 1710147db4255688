import type { EsClient } from '../../internal/es.js';
import type { Logger } from '../../internal/logger.js';
import type { PgPool } from '../../internal/pg.js';
import { withTransaction } from '../../internal/pg.js';
import type { IndexFamily } from '../../search-mappings/aliases.js';
import { swapAliases } from '../../search-mappings/aliases.js';

/*
 * Reindex windows (table search_reindexes): while one is open, the trigger on search_outbox copies
 * every entry the projector deletes into search_outbox_replay (see the invariant on reindexFamily
 * in indexer/project/reindex.ts and migration 2026_11_21_04).
 */

/**
 * Opens a window before the first page is read; committed at once, so the projector's deletes
 * from now on are kept.
 * @returns the window id.
 */
export async function openReindexWindow(
  pg: PgPool,
  { prefix, family, index }: { prefix: string; family: IndexFamily; index: string },
): Promise<string> {
  const { rows } = await pg.query<{ id: string }>(
    'INSERT INTO search_reindexes (index_prefix, family, index_name) VALUES ($1, $2, $3) RETURNING id',
    [prefix, family, index],
  );
  return rows[0]!.id;
}

/** Closes a window without replay (the reindex failed before the swap: the old index got every projection). */
export async function discardReindexWindow(pg: PgPool, id: string): Promise<void> {
  await pg.query('DELETE FROM search_reindexes WHERE id = $1', [id]);
}

/** Attempts at the outbox lock (each waits at most LOCK_WAIT) before the reindex gives up. */
const LOCK_ATTEMPTS = 12;
const LOCK_WAIT = '5s';

/**
 * The swap transaction: EXCLUSIVE lock on search_outbox (waits for projector transactions in
 * flight, holds new ones off), one `_aliases` call, replay of the kept entries, window closed.
 * The lock is tried in bounded waits, so a slow projector batch delays the swap without queueing
 * every outbox writer behind it for long.
 */
export async function swapWithReplay({
  pg,
  es,
  prefix,
  family,
  index,
  windowId,
  onSwapped,
  logger,
}: {
  pg: PgPool;
  es: EsClient;
  prefix: string;
  family: IndexFamily;
  index: string;
  windowId: string;
  onSwapped(): void;
  logger: Logger;
}): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await withTransaction(pg, async (tx) => {
        await tx.query(`SET LOCAL lock_timeout = '${LOCK_WAIT}'`);
        await tx.query('LOCK TABLE search_outbox IN EXCLUSIVE MODE');
        await swapAliases({ es, prefix, family, to: index });
        onSwapped();
        const queued = await tx.query(
          `INSERT INTO search_outbox (entity, entity_id) SELECT entity, entity_id FROM search_outbox_replay
           WHERE reindex_id = $1 AND ($2 = 'opportunities' OR entity = 'campaign')`,
          [windowId, family],
        );
        await tx.query('DELETE FROM search_reindexes WHERE id = $1', [windowId]);
        return queued.rowCount ?? 0;
      });
    } catch (error) {
      // 55P03 lock_not_available: the lock was not granted in time, nothing happened yet.
      if ((error as { code?: string }).code !== '55P03' || attempt >= LOCK_ATTEMPTS) throw error;
      logger.warn({ msg: 'search outbox busy; retrying the alias swap', attempt });
    }
  }
}

/**
 * Windows of reindexes that died (the caller holds the reindex lock, so none is running): their
 * kept entries are queued again (re-projecting is harmless) and the windows closed.
 */
export async function replayAbandonedWindows(
  pg: PgPool,
  prefix: string,
): Promise<{ windows: number; replayed: number }> {
  return withTransaction(pg, async (tx) => {
    const queued = await tx.query(
      `INSERT INTO search_outbox (entity, entity_id) SELECT DISTINCT entity, entity_id FROM search_outbox_replay
       WHERE reindex_id IN (SELECT id FROM search_reindexes WHERE index_prefix = $1)`,
      [prefix],
    );
    const closed = await tx.query('DELETE FROM search_reindexes WHERE index_prefix = $1', [prefix]);
    return { windows: closed.rowCount ?? 0, replayed: queued.rowCount ?? 0 };
  });
}
