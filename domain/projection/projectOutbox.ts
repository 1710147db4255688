import type { Config } from '../../internal/config.js';
import type { EsClient } from '../../internal/es.js';
import type { Logger } from '../../internal/logger.js';
import type { PgPool } from '../../internal/pg.js';
import { withTransaction } from '../../internal/pg.js';
import { claimOutbox } from './outbox.js';
import { projectBatch, projectionTarget } from './projectBatch.js';
import type { OutboxEntity } from '../tables/outbox.js';

export type ProjectOutboxParams = {
  config: Config;
  pg: PgPool;
  es: EsClient;
  logger: Logger;
  signal?: AbortSignal;
  maxBatches?: number;
  /** Only entries after this id (outboxHighWater before the caller's writes): its own, not a backlog. */
  afterId?: number;
  /** Only entries of this entity (campaign documents while a writer goes on; their opportunities later). */
  entity?: OutboxEntity;
};

/**
 * Drains the search outbox: each batch locks entries, then (projectBatch.ts) builds campaign and opportunity documents
 * from PostgreSQL (a campaign change queues its opportunity for a later batch), bulk-writes them to the write
 * aliases and deletes the entries, all before its transaction commits. If Elasticsearch fails the
 * transaction rolls back and the entries wait for the next run, so a crash at any point neither
 * loses nor duplicates a document (ids are deterministic). Campaigns written for the first time get
 * their first publication stamped (freshness). While a reindex is open, the entries deleted here are kept
 * for replay by a trigger (see indexer/project/reindex.ts). Several projectors may drain at once
 * (the publish job, each chain's campaigns unit): they split the entries, and one waits for another
 * only on a document both must build (claimOutbox). With `afterId`, a job publishes the entries of
 * its own writes (and any later ones) ahead of an older backlog, which the publish job drains.
 * Tables: search_outbox, chains (names), campaigns_current, campaign_first_publications, opportunities, tokens. Indices: <prefix>-{campaigns,opportunities}_write.
 */
export async function projectOutbox({
  config,
  pg,
  es,
  logger,
  signal,
  maxBatches = 1000,
  afterId,
  entity,
}: ProjectOutboxParams) {
  const target = await projectionTarget({ config, pg, es, logger });
  let published = 0;
  let deleted = 0;
  for (let batch = 0; batch < maxBatches && !signal?.aborted; batch++) {
    const done = await withTransaction(pg, async (client) => {
      const t0 = performance.now();
      const entries = await claimOutbox(client, config.indexer.publishBatch, { afterId, entity });
      if (!entries.length) return true;
      const idsOf = (entity: string) => [...new Set(entries.filter((e) => e.entity === entity).map((e) => e.entityId))];
      const result = await projectBatch(
        client,
        target,
        {
          campaignIds: idsOf('campaign'),
          opportunityIds: idsOf('opportunity'),
          entryIds: entries.map((e) => e.id),
          claimMs: performance.now() - t0,
        },
        // The last, partial batch of a drain (at the head: every batch) is made searchable at once
        // instead of at the next refresh interval; full batches of a backfill keep the interval.
        { refresh: entries.length < config.indexer.publishBatch, deadLetter: true },
      );
      published += result.indexed;
      deleted += result.deleted;
      return entries.length < config.indexer.publishBatch && result.queued === 0;
    });
    if (done) break;
  }
  return { published, deleted };
}
