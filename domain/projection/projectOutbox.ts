import type { Config } from '../../internal/config.js';
import type { EsClient } from '../../internal/es.js';
import { indexNames } from '../../internal/es.js';
import type { Logger } from '../../internal/logger.js';
import type { PgClient, PgPool } from '../../internal/pg.js';
import { withTransaction } from '../../internal/pg.js';
import { buildDocuments } from './buildDocuments.js';
import { recordFirstPublication } from './freshness.js';
import { bulkWrite, PublishError } from './publish.js';
import { claimOutbox, deleteOutbox } from './outbox.js';
import { enqueueOutbox, type OutboxEntity } from '../tables/outbox.js';

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
 * Drains the search outbox: each batch locks entries, builds campaign and opportunity documents
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
  // A chain's name as stored (the back office may have curated it: PATCH /v4/chains/{chainId}), else as configured.
  const chainNames = new Map(config.chains.map((c) => [c.id, c.name]));
  const stored = await pg.query<{ id: number; name: string }>('SELECT id, name FROM chains');
  for (const row of stored.rows) if (chainNames.has(row.id)) chainNames.set(row.id, row.name);
  const campaignIndex = indexNames(config.esIndexPrefix, 'campaigns').write;
  const opportunityIndex = indexNames(config.esIndexPrefix, 'opportunities').write;
  let published = 0;
  let deleted = 0;
  for (let batch = 0; batch < maxBatches && !signal?.aborted; batch++) {
    const done = await withTransaction(pg, async (client) => {
      const t0 = performance.now();
      const entries = await claimOutbox(client, config.indexer.publishBatch, { afterId, entity });
      const t1 = performance.now();
      if (!entries.length) return true;
      const idsOf = (entity: string) => [...new Set(entries.filter((e) => e.entity === entity).map((e) => e.entityId))];
      const now = new Date();
      const campaigns = await buildDocuments(client, 'campaigns', idsOf('campaign'), { chainNames, now });
      // Opportunities of changed campaigns are queued, not rebuilt here: an opportunity with many
      // campaigns changing over many batches is then rebuilt once, when its entries come up together.
      const opportunityIds = idsOf('opportunity');
      const queued = [...new Set(campaigns.opportunityIds)].filter((id) => !opportunityIds.includes(id));
      await enqueueOutbox(client, 'opportunity', queued);
      const opportunities = await buildDocuments(client, 'opportunities', opportunityIds, { chainNames, now });
      // The last, partial batch of a drain (at the head: every batch) is made searchable at once
      // instead of at the next refresh interval; full batches of a backfill keep the interval.
      const refresh = entries.length < config.indexer.publishBatch;
      const t2 = performance.now();
      // The two indices are written at once (two bulk requests in flight, one per family); both
      // settle before the transaction goes on or rolls back (a dead-letter insert stays inside it).
      const results = await settleAll([
        writeOrDeadLetter(client, logger, 'campaign', () =>
          bulkWrite({ es, index: campaignIndex, upserts: campaigns.upserts, deletes: campaigns.deletes, refresh }),
        ),
        writeOrDeadLetter(client, logger, 'opportunity', () =>
          bulkWrite({
            es,
            index: opportunityIndex,
            upserts: opportunities.upserts,
            deletes: opportunities.deletes,
            refresh,
          }),
        ),
      ]);
      const t3 = performance.now();
      await recordFirstPublication(
        client,
        campaigns.upserts.map((u) => u.id),
      );
      await deleteOutbox(
        client,
        entries.map((e) => e.id),
      );
      published += results[0]!.indexed + results[1]!.indexed;
      deleted += results[0]!.deleted + results[1]!.deleted;
      logger.debug({
        msg: 'outbox batch published',
        entries: entries.length,
        campaigns: campaigns.upserts.length,
        opportunities: opportunities.upserts.length,
        claim_ms: Math.round(t1 - t0),
        build_ms: Math.round(t2 - t1),
        bulk_ms: Math.round(t3 - t2),
        finish_ms: Math.round(performance.now() - t3),
      });
      return entries.length < config.indexer.publishBatch && queued.length === 0;
    });
    if (done) break;
  }
  return { published, deleted };
}

/** A refusal that retrying the same document cannot fix (mapping violation, too large, bad request). */
const isPermanent = (status: number) => status >= 400 && status < 500 && status !== 408 && status !== 429;

/**
 * Runs one bulk write; when every failed item is refused for good, records those documents in
 * search_dead_letters (logged at error level) so the rest of the outbox keeps flowing. Any
 * transient item failure rethrows: the transaction rolls back and the batch is retried.
 */
async function writeOrDeadLetter(
  client: PgClient,
  logger: Logger,
  entity: string,
  write: () => Promise<{ indexed: number; deleted: number }>,
) {
  try {
    return await write();
  } catch (error) {
    if (!(error instanceof PublishError) || !error.failures.every((f) => isPermanent(f.status))) throw error;
    await client.query(
      'INSERT INTO search_dead_letters (entity, entity_id, status, reason) SELECT $1, * FROM unnest($2::text[], $3::int[], $4::text[])',
      [
        entity,
        error.failures.map((f) => f.id),
        error.failures.map((f) => f.status),
        error.failures.map((f) => f.reason.slice(0, 2000)),
      ],
    );
    logger.error({
      msg: 'documents refused by Elasticsearch; dead-lettered',
      entity,
      ids: error.failures.map((f) => f.id).slice(0, 20),
      count: error.failures.length,
      reason: error.failures[0]?.reason,
    });
    return { indexed: 0, deleted: 0, deadLettered: error.failures.length };
  }
}

/** Like Promise.all, but waits for every promise to settle before rethrowing the first failure. */
async function settleAll<T>(promises: Promise<T>[]): Promise<T[]> {
  const settled = await Promise.allSettled(promises);
  const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((r) => (r as PromiseFulfilledResult<T>).value);
}
