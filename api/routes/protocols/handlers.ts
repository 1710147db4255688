import { loadProtocolCatalogue } from '../../../domain/tables/protocolCatalogue.js';
import type { Queryable } from '../../../internal/pg.js';
import { nowSeconds, type ApiDeps } from '../../deps.js';
import { NotFoundError } from '../../errors.js';
import type { Handler } from '../../validate.js';
import { aggregateProtocols } from './aggregate.js';
import { loadOpportunityFacts } from './repo.js';
import type { listProtocolsQuery, protocolIdParams } from './schema.js';
import { type ProtocolResponse, serializeProtocol } from './serialize.js';

/**
 * GET /v4/protocols: every protocol of the catalogue (registry, corrections, added ones) passing the filters, with
 * daily rewards and live campaigns aggregated over their matching opportunities. Tables opportunities,
 * campaigns_current, opportunity_metrics, chains, tokens, protocol_overrides, protocols.
 */
export function listProtocolsHandler(deps: ApiDeps): Handler<{ query: typeof listProtocolsQuery }> {
  return async (ctx) => {
    const q = ctx.state.query;
    const [facts, catalogue] = await Promise.all([
      loadOpportunityFacts(deps.pg, nowSeconds(deps)),
      loadProtocolCatalogue(deps.pg),
    ]);
    ctx.body = aggregateProtocols(facts, q, catalogue).map(serializeProtocol);
  };
}

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

/** GET /v4/protocols/{id}: 404 for an id the catalogue does not hold. */
export function getProtocolHandler(deps: ApiDeps): Handler<{ params: typeof protocolIdParams }> {
  return async (ctx) => {
    const record = await protocolRecord(deps.pg, nowSeconds(deps), ctx.state.params.id);
    if (!record) throw new NotFoundError(`No protocol ${ctx.state.params.id}`);
    ctx.body = record;
  };
}
