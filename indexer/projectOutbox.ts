import type { Config } from '../internal/config.js';
import type { EsClient } from '../internal/es.js';
import { indexNames } from '../internal/es.js';
import type { Logger } from '../internal/logger.js';
import type { PgPool } from '../internal/pg.js';
import { withTransaction } from '../internal/pg.js';
import { buildDocuments } from './buildDocuments.js';
import { recordFirstPublication } from './freshness.js';
import { bulkWrite } from './publish.js';
import { claimOutbox, deleteOutbox } from './store/outbox.js';

export type ProjectOutboxParams = { config: Config; pg: PgPool; es: EsClient; logger: Logger; signal?: AbortSignal; maxBatches?: number };

/**
 * Drains the search outbox: each batch locks entries, builds campaign and opportunity documents
 * from PostgreSQL (a campaign change also rebuilds its opportunity), bulk-writes them to the write
 * aliases and deletes the entries, all before its transaction commits. If Elasticsearch fails the
 * transaction rolls back and the entries wait for the next run, so a crash at any point neither
 * loses nor duplicates a document (ids are deterministic). Campaigns written for the first time get
 * their first_published_at (freshness). While a reindex is open, the entries deleted here are kept
 * for replay by a trigger (see indexer/reindex.ts).
 * Tables: search_outbox, campaigns_current, campaigns (first_published_at), opportunities, tokens. Indices: <prefix>-{campaigns,opportunities}_write.
 */
export async function projectOutbox({ config, pg, es, logger, signal, maxBatches = 1000 }: ProjectOutboxParams) {
  const chainNames = new Map(config.chains.map((c) => [c.id, c.name]));
  const campaignIndex = indexNames(config.esIndexPrefix, 'campaigns').write;
  const opportunityIndex = indexNames(config.esIndexPrefix, 'opportunities').write;
  let published = 0;
  let deleted = 0;
  for (let batch = 0; batch < maxBatches && !signal?.aborted; batch++) {
    const done = await withTransaction(pg, async (client) => {
      const entries = await claimOutbox(client, config.indexer.publishBatch);
      if (!entries.length) return true;
      const idsOf = (entity: string) => [...new Set(entries.filter((e) => e.entity === entity).map((e) => e.entityId))];
      const now = new Date();
      const campaigns = await buildDocuments(client, 'campaigns', idsOf('campaign'), { chainNames, now });
      const opportunities = await buildDocuments(client, 'opportunities', [...new Set([...idsOf('opportunity'), ...campaigns.opportunityIds])], { chainNames, now });
      const results = [
        await bulkWrite({ es, index: campaignIndex, upserts: campaigns.upserts, deletes: campaigns.deletes }),
        await bulkWrite({ es, index: opportunityIndex, upserts: opportunities.upserts, deletes: opportunities.deletes }),
      ];
      await recordFirstPublication(client, campaigns.upserts.map((u) => u.id));
      await deleteOutbox(client, entries.map((e) => e.id));
      published += results[0]!.indexed + results[1]!.indexed;
      deleted += results[0]!.deleted + results[1]!.deleted;
      logger.debug({ msg: 'outbox batch published', entries: entries.length, campaigns: campaigns.upserts.length, opportunities: opportunities.upserts.length });
      return entries.length < config.indexer.publishBatch;
    });
    if (done) break;
  }
  return { published, deleted };
}
