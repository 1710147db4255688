import { withTransaction } from '../../internal/pg.js';
import type { OutboxEntity } from '../tables/outbox.js';
import { claimDocuments } from './outbox.js';
import { projectBatch, projectionTarget, type ProjectionDeps } from './projectBatch.js';

/**
 * Publishes the named documents now, with the projector's own steps, for a write that must reach
 * search reads before its request answers (a privacy change), whatever waits ahead in the outbox: in
 * one transaction it takes the documents' locks (waiting for a projector building one of them, then
 * building after it from PostgreSQL, which already holds the caller's committed write), claims their
 * waiting entries, builds and bulk-writes the documents with a refresh, queues the opportunities of
 * the campaigns built and deletes the entries (projectBatch.ts: the projector's delete, so while a
 * reindex is open they are kept for replay as the projector's are). Nothing is dead-lettered: a failure
 * to write is thrown, the transaction rolls back and the entries wait for the publish job.
 * Tables: search_outbox, chains, campaigns_current, campaign_first_publications,
 * opportunities, tokens. Indices: <prefix>-{campaigns,opportunities}_write.
 */
export async function projectDocumentsNow(
  deps: ProjectionDeps,
  entity: OutboxEntity,
  ids: string[],
): Promise<{ indexed: number; deleted: number }> {
  const target = await projectionTarget(deps);
  const named = [...new Set(ids)];
  return withTransaction(deps.pg, async (client) => {
    const t0 = performance.now();
    const entries = await claimDocuments(client, entity, named);
    const { indexed, deleted } = await projectBatch(
      client,
      target,
      {
        campaignIds: entity === 'campaign' ? named : [],
        opportunityIds: entity === 'opportunity' ? named : [],
        entryIds: entries.map((e) => e.id),
        claimMs: performance.now() - t0,
      },
      { refresh: true, deadLetter: false },
    );
    return { indexed, deleted };
  });
}
