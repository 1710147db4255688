import type { Config } from '../internal/config.js';
import type { EsClient } from '../internal/es.js';
import { indexNames } from '../internal/es.js';
import type { Logger } from '../internal/logger.js';
import type { PgPool } from '../internal/pg.js';
import { withTransaction } from '../internal/pg.js';
import { toCampaignDocument } from './documents/campaignDocument.js';
import { bulkWrite } from './publish.js';
import { loadCampaignSources } from './store/campaignSources.js';
import { claimOutbox, deleteOutbox } from './store/outbox.js';

export type ProjectOutboxParams = { config: Config; pg: PgPool; es: EsClient; logger: Logger; signal?: AbortSignal; maxBatches?: number };

/**
 * Drains the search outbox: each batch locks entries, builds documents from PostgreSQL, bulk-writes
 * them to the write alias and deletes the entries, all before its transaction commits. If
 * Elasticsearch fails the transaction rolls back and the entries wait for the next run, so a crash
 * at any point neither loses nor duplicates a document (ids are deterministic).
 * Tables: search_outbox, campaigns, tokens. Index: <prefix>-campaigns_write.
 */
export async function projectOutbox({ config, pg, es, logger, signal, maxBatches = 1000 }: ProjectOutboxParams) {
  const chainNames = new Map(config.chains.map((c) => [c.id, c.name]));
  const campaignIndex = indexNames(config.esIndexPrefix, 'campaigns').write;
  let published = 0;
  let deleted = 0;
  for (let batch = 0; batch < maxBatches && !signal?.aborted; batch++) {
    const done = await withTransaction(pg, async (client) => {
      const entries = await claimOutbox(client, config.indexer.publishBatch);
      if (!entries.length) return true;
      const campaignIds = [...new Set(entries.filter((e) => e.entity === 'campaign').map((e) => e.entityId))];
      const sources = await loadCampaignSources(client, campaignIds);
      const now = new Date();
      const found = new Set(sources.map((s) => s.id));
      const result = await bulkWrite({
        es,
        index: campaignIndex,
        upserts: sources.map((s) => ({ id: s.id, document: toCampaignDocument(s, chainNames, now) })),
        deletes: campaignIds.filter((id) => !found.has(id)),
      });
      await deleteOutbox(client, entries.map((e) => e.id));
      published += result.indexed;
      deleted += result.deleted;
      logger.debug({ msg: 'outbox batch published', entries: entries.length, indexed: result.indexed, deleted: result.deleted, es_took: result.tookMs });
      return entries.length < config.indexer.publishBatch;
    });
    if (done) break;
  }
  return { published, deleted };
}
