import type { Config } from '../../internal/config.js';
import type { EsClient } from '../../internal/es.js';
import { indexNames } from '../../internal/es.js';
import type { Logger } from '../../internal/logger.js';
import type { PgClient, PgPool } from '../../internal/pg.js';
import { buildDocuments, type BuildDocumentsResult } from './buildDocuments.js';
import { recordFirstPublication } from './freshness.js';
import { bulkWrite, PublishError } from './publish.js';
import { deleteOutbox } from './outbox.js';
import { enqueueOutbox } from '../tables/outbox.js';

/** Where and how a projection writes: the same for every batch of one run. */
export type ProjectionTarget = {
  es: EsClient;
  logger: Logger;
  /** Chain id → name as stored (the back office may have curated it: PATCH /v4/chains/{chainId}), else as configured. */
  chainNames: ReadonlyMap<number, string>;
  /** The write aliases (<prefix>-{campaigns,opportunities}_write). */
  campaignIndex: string;
  opportunityIndex: string;
};

/** What a projection runs on; `pg` must be a read-write pool. */
export type ProjectionDeps = { config: Config; pg: PgPool; es: EsClient; logger: Logger };

/** Reads what every batch of a projection run needs once: the chains' names and the write aliases. Tables: chains. */
export async function projectionTarget({ config, pg, es, logger }: ProjectionDeps): Promise<ProjectionTarget> {
  const chainNames = new Map(config.chains.map((c) => [c.id, c.name]));
  const stored = await pg.query<{ id: number; name: string }>('SELECT id, name FROM chains');
  for (const row of stored.rows) if (chainNames.has(row.id)) chainNames.set(row.id, row.name);
  return {
    es,
    logger,
    chainNames,
    campaignIndex: indexNames(config.esIndexPrefix, 'campaigns').write,
    opportunityIndex: indexNames(config.esIndexPrefix, 'opportunities').write,
  };
}

/** What one batch publishes: the documents to build, and the outbox entries they settle. */
export type ProjectionBatch = {
  campaignIds: string[];
  opportunityIds: string[];
  /** The claimed entries (deleted once the documents are written). */
  entryIds: number[];
  /** How long claiming them took (logged with the batch). */
  claimMs: number;
};

export type ProjectionBatchOptions = {
  /** Make the written documents searchable before the bulk request answers. */
  refresh: boolean;
  /**
   * Documents Elasticsearch refuses for good go to search_dead_letters and the batch goes on (the
   * outbox keeps flowing); without it, any failure is thrown and the transaction rolls back.
   */
  deadLetter: boolean;
};

/**
 * The body of one projection batch, inside the caller's transaction once it claimed the entries and
 * holds the documents' locks (outbox.ts): builds the campaign and opportunity documents from
 * PostgreSQL, queues the opportunities of the campaigns built (rebuilt when their entries come up, so
 * an opportunity whose campaigns change over many batches is rebuilt once), bulk-writes both families
 * to the write aliases, stamps the campaigns published for the first time and deletes the entries
 * (while a reindex is open, a trigger keeps those for replay: indexer/project/reindex.ts).
 * Tables: campaigns_current, opportunities, tokens, campaign_first_publications, search_outbox.
 * @returns the documents indexed and deleted, and how many opportunities were queued.
 */
export async function projectBatch(
  client: PgClient,
  target: ProjectionTarget,
  batch: ProjectionBatch,
  { refresh, deadLetter }: ProjectionBatchOptions,
): Promise<{ indexed: number; deleted: number; queued: number }> {
  const { es, logger, chainNames } = target;
  const t1 = performance.now();
  const now = new Date();
  const campaigns = await buildDocuments(client, 'campaigns', batch.campaignIds, { chainNames, now });
  const queued = [...new Set(campaigns.opportunityIds)].filter((id) => !batch.opportunityIds.includes(id));
  await enqueueOutbox(client, 'opportunity', queued);
  const opportunities = await buildDocuments(client, 'opportunities', batch.opportunityIds, { chainNames, now });
  const t2 = performance.now();
  const write = (entity: string, index: string, built: Omit<BuildDocumentsResult, 'opportunityIds'>) => {
    const run = () => bulkWrite({ es, index, upserts: built.upserts, deletes: built.deletes, refresh });
    return deadLetter ? writeOrDeadLetter(client, logger, entity, run) : run();
  };
  // The two indices are written at once (two bulk requests in flight, one per family); both
  // settle before the transaction goes on or rolls back (a dead-letter insert stays inside it).
  const [campaignResult, opportunityResult] = await settleAll([
    write('campaign', target.campaignIndex, campaigns),
    write('opportunity', target.opportunityIndex, opportunities),
  ]);
  const t3 = performance.now();
  await recordFirstPublication(
    client,
    campaigns.upserts.map((u) => u.id),
  );
  await deleteOutbox(client, batch.entryIds);
  logger.debug({
    msg: 'outbox batch published',
    entries: batch.entryIds.length,
    campaigns: campaigns.upserts.length,
    opportunities: opportunities.upserts.length,
    claim_ms: Math.round(batch.claimMs),
    build_ms: Math.round(t2 - t1),
    bulk_ms: Math.round(t3 - t2),
    finish_ms: Math.round(performance.now() - t3),
  });
  return {
    indexed: campaignResult!.indexed + opportunityResult!.indexed,
    deleted: campaignResult!.deleted + opportunityResult!.deleted,
    queued: queued.length,
  };
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
