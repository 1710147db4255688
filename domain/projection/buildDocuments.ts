import type { PgClient } from '../../internal/pg.js';
import type { IndexFamily } from '../../search-mappings/aliases.js';
import { toCampaignDocument } from '../documents/campaignDocument.js';
import { opportunityDocumentOf } from '../documents/opportunityDocument.js';
import { loadCampaignSources } from './campaignSources.js';
import { loadOpportunitySources } from './opportunitySources.js';
import { loadProtocolCatalogue } from '../tables/protocolCatalogue.js';

export type BuildDocumentsOptions = {
  /** Chain id → name (free-text fields, opportunity descriptions). */
  chainNames: ReadonlyMap<number, string>;
  /** Time the documents are built at (indexedAt, opportunity status). */
  now: Date;
};

export type BuiltDocument = { id: string; document: Record<string, unknown> };

export type BuildDocumentsResult = {
  /** Documents to write, keyed by their deterministic id. */
  upserts: BuiltDocument[];
  /** Ids whose document must not exist (no row, or an opportunity without campaigns). */
  deletes: string[];
  /** Opportunities of the campaigns built (a campaign change rebuilds its opportunity); empty for opportunities. */
  opportunityIds: string[];
};

/**
 * Builds the search documents of `ids` from PostgreSQL, exactly as the projector publishes them:
 * campaigns from campaigns_current with their reward token; opportunities with their current
 * campaigns and target token. Used by the outbox projector, the reindex and the consistency check.
 * Tables: campaigns_current, opportunities, tokens, protocol_overrides, protocols.
 */
export async function buildDocuments(
  client: PgClient,
  family: IndexFamily,
  ids: string[],
  { chainNames, now }: BuildDocumentsOptions,
): Promise<BuildDocumentsResult> {
  if (family === 'campaigns') {
    const sources = await loadCampaignSources(client, ids);
    const found = new Set(sources.map((s) => s.id));
    const upserts = sources.map((s) => ({ id: s.id, document: toCampaignDocument(s, chainNames, now) }));
    return {
      upserts,
      deletes: ids.filter((id) => !found.has(id)),
      opportunityIds: upserts.map((u) => u.document.opportunityId),
    };
  }
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const [sources, protocols] = await Promise.all([
    loadOpportunitySources(client, ids, nowSeconds),
    loadProtocolCatalogue(client),
  ]);
  const upserts: BuiltDocument[] = [];
  for (const s of sources) {
    const document = opportunityDocumentOf(
      s,
      chainNames.get(s.chain_id) ?? `chain ${s.chain_id}`,
      nowSeconds,
      protocols,
    );
    if (document) upserts.push({ id: s.id, document });
  }
  const kept = new Set(upserts.map((u) => u.id));
  return { upserts, deletes: ids.filter((id) => !kept.has(id)), opportunityIds: [] };
}
