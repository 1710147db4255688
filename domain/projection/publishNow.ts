import type { Config } from '../../internal/config.js';
import type { EsClient } from '../../internal/es.js';
import type { Logger } from '../../internal/logger.js';
import type { PgClient, PgPool } from '../../internal/pg.js';
import { projectOutbox } from './projectOutbox.js';

/** The newest search_outbox entry's id (0 when empty): entries a write queues after this call have greater ids. */
export async function outboxMark(db: Pick<PgClient, 'query'>): Promise<number> {
  const { rows } = await db.query<{ id: string }>('SELECT coalesce(max(id), 0) AS id FROM search_outbox');
  return Number(rows[0]!.id);
}

/**
 * Publishes now the search outbox entries after `afterId` (a back-office write's own, queued in its transaction, and
 * any later ones) with the projector every job uses, so the documents are rebuilt from PostgreSQL exactly as the
 * publish job would (one writer path for the campaign and opportunity documents). `pg` must be a read-write pool.
 * Entries another projector claimed meanwhile are published by it.
 */
export async function publishOutboxNow(
  deps: { config: Config; pg: PgPool; es: EsClient; logger: Logger },
  afterId: number,
): Promise<{ published: number; deleted: number }> {
  // Bounded: a request publishes at most INLINE_PUBLISH_BATCHES batches (INDEXER_PUBLISH_BATCH entries each); what
  // a larger write queued (a chain renamed under thousands of documents) stays queued for the publish job.
  return projectOutbox({ ...deps, afterId, maxBatches: INLINE_PUBLISH_BATCHES });
}

/** How many outbox batches a request publishes itself after a back-office write (the rest: the publish job). */
export const INLINE_PUBLISH_BATCHES = 4;
