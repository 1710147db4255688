import { loadProtocolCatalogue } from '../../../domain/tables/protocolCatalogue.js';
import type { Queryable } from '../../../internal/pg.js';
import { aggregateProtocols } from './aggregate.js';
import { loadOpportunityFacts } from './repo.js';
import { type ProtocolResponse, serializeProtocol } from './serialize.js';

/**
 * One protocol of the catalogue with the figures of all its opportunities (test chains included, sub-campaigns
 * counted), or null when the catalogue has no such id. What GET /v4/protocols/{id} and the back office's writes answer.
 */
export async function protocolRecord(db: Queryable, now: number, id: string): Promise<ProtocolResponse | null> {
  const [facts, catalogue] = await Promise.all([loadOpportunityFacts(db, now), loadProtocolCatalogue(db)]);
  const all = { page: 0, items: Number.MAX_SAFE_INTEGER, test: true, excludeSubCampaigns: false, id };
  const [aggregate] = aggregateProtocols(facts, all, catalogue);
  return aggregate ? serializeProtocol(aggregate) : null;
}
