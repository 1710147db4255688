import type { Config } from '../internal/config.js';
import type { EsClient } from '../internal/es.js';
import { indexNames } from '../internal/es.js';
import type { Logger } from '../internal/logger.js';
import type { PgClient, PgPool } from '../internal/pg.js';
import { withTransaction } from '../internal/pg.js';
import { toCampaignDocument } from './documents/campaignDocument.js';
import { toOpportunityDocument } from './documents/opportunityDocument.js';
import { bulkWrite } from './publish.js';
import { loadCampaignSources } from './store/campaignSources.js';
import { loadOpportunitySources } from './store/opportunitySources.js';
import { claimOutbox, deleteOutbox } from './store/outbox.js';

export type ProjectOutboxParams = { config: Config; pg: PgPool; es: EsClient; logger: Logger; signal?: AbortSignal; maxBatches?: number };

type Projected = { upserts: { id: string; document: Record<string, unknown> }[]; deletes: string[] };

/** Campaign documents of `ids` (missing rows → deletes), and the opportunities those campaigns are in. */
async function projectCampaigns(client: PgClient, ids: string[], chainNames: ReadonlyMap<number, string>, now: Date): Promise<Projected & { opportunityIds: string[] }> {
  const sources = await loadCampaignSources(client, ids);
  const found = new Set(sources.map((s) => s.id));
  const upserts = sources.map((s) => ({ id: s.id, document: toCampaignDocument(s, chainNames, now) }));
  return { upserts, deletes: ids.filter((id) => !found.has(id)), opportunityIds: upserts.map((u) => u.document.opportunityId) };
}

/** Opportunity documents of `ids`; an opportunity without campaigns (or without a row) is deleted. */
async function projectOpportunities(client: PgClient, ids: string[], chainNames: ReadonlyMap<number, string>, now: Date): Promise<Projected> {
  const sources = await loadOpportunitySources(client, ids);
  const upserts: Projected['upserts'] = [];
  const kept = new Set<string>();
  for (const s of sources) {
    const document = toOpportunityDocument(s, chainNames.get(s.chain_id) ?? `chain ${s.chain_id}`, Math.floor(now.getTime() / 1000));
    if (document) upserts.push({ id: s.id, document }), kept.add(s.id);
  }
  return { upserts, deletes: ids.filter((id) => !kept.has(id)) };
}

/**
 * Drains the search outbox: each batch locks entries, builds campaign and opportunity documents
 * from PostgreSQL (a campaign change also rebuilds its opportunity), bulk-writes them to the write
 * aliases and deletes the entries, all before its transaction commits. If Elasticsearch fails the
 * transaction rolls back and the entries wait for the next run, so a crash at any point neither
 * loses nor duplicates a document (ids are deterministic).
 * Tables: search_outbox, campaigns_current, opportunities, tokens. Indices: <prefix>-{campaigns,opportunities}_write.
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
      const campaigns = await projectCampaigns(client, idsOf('campaign'), chainNames, now);
      const opportunities = await projectOpportunities(client, [...new Set([...idsOf('opportunity'), ...campaigns.opportunityIds])], chainNames, now);
      const results = [
        await bulkWrite({ es, index: campaignIndex, upserts: campaigns.upserts, deletes: campaigns.deletes }),
        await bulkWrite({ es, index: opportunityIndex, upserts: opportunities.upserts, deletes: opportunities.deletes }),
      ];
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
